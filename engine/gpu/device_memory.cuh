#pragma once
// Device memory from a stream-ordered pool (cudaMallocAsync): freed blocks
// stay in the pool, so a query's many small tables cost no cudaMalloc each.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "engine/gpu/cuda_check.cuh"

namespace gsparql::engine::gpu {

// The device could not give an allocation (or the simulated device's
// capacity would be exceeded): the executor frees what its device holds
// and declines the BGP, which the placer runs on the CPU executor rather
// than fail the query.
class DeviceOutOfMemory : public Error {
 public:
  explicit DeviceOutOfMemory(size_t bytes)
      : Error("the GPU has no " + std::to_string(bytes) + " bytes left for this query") {}
};

class DevicePool {
 public:
  // `capacity` (bytes, 0: the device's own) simulates a smaller device:
  // allocations that would hold more fail as the device's would.
  explicit DevicePool(uint64_t capacity = 0);
  ~DevicePool();
  DevicePool(const DevicePool&) = delete;
  DevicePool& operator=(const DevicePool&) = delete;
  cudaStream_t stream() const { return stream_; }
  int device() const { return device_; }  // the CUDA ordinal its stream and memory belong to
  void* allocate(size_t bytes);
  void release(void* p, size_t bytes);
  void synchronize() const { GSPARQL_CUDA(cudaStreamSynchronize(stream_)); }
  // Bytes allocated and not yet released: what the executor's memory limit counts.
  uint64_t bytesInUse() const { return inUse_; }

 private:
  cudaStream_t stream_ = nullptr;
  int device_ = 0;
  uint64_t capacity_ = 0;
  uint64_t inUse_ = 0;
};

template <typename T>
class DeviceArray {
 public:
  DeviceArray() = default;
  DeviceArray(DevicePool& pool, size_t count)
      : pool_(&pool), data_(static_cast<T*>(pool.allocate(count * sizeof(T)))), size_(count) {}
  DeviceArray(DeviceArray&& o) noexcept
      : pool_(o.pool_), data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  DeviceArray& operator=(DeviceArray&& o) noexcept {
    if (this != &o) {
      reset();
      pool_ = o.pool_;
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
    }
    return *this;
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() { reset(); }

  T* data() const { return data_; }
  size_t size() const { return size_; }
  size_t bytes() const { return size_ * sizeof(T); }
  void reset() {
    if (data_ != nullptr) pool_->release(data_, bytes());
    data_ = nullptr;
    size_ = 0;
  }

  void upload(const T* host, size_t count) {
    GSPARQL_CUDA(cudaMemcpyAsync(data_, host, count * sizeof(T), cudaMemcpyHostToDevice, pool_->stream()));
  }
  std::vector<T> download() const {
    std::vector<T> host(size_);
    if (size_ > 0) {
      GSPARQL_CUDA(cudaMemcpyAsync(host.data(), data_, bytes(), cudaMemcpyDeviceToHost, pool_->stream()));
    }
    pool_->synchronize();
    return host;
  }

 private:
  DevicePool* pool_ = nullptr;
  T* data_ = nullptr;
  size_t size_ = 0;
};

// One allocation carved into several arrays: a join step's small arrays
// cost one pool allocation instead of one each.
class Workspace {
 public:
  Workspace(DevicePool& pool, size_t bytes) : memory_(pool, bytes) {}
  template <typename T>
  T* take(size_t count) {
    used_ = (used_ + 15) / 16 * 16;
    T* p = reinterpret_cast<T*>(memory_.data() + used_);
    used_ += count * sizeof(T);
    return p;
  }
  template <typename... T>
  static size_t bytesFor(size_t count) {
    return ((count * sizeof(T) + 16) + ...);
  }

 private:
  DeviceArray<unsigned char> memory_;
  size_t used_ = 0;
};

// A device copy of `host`, made on the pool's stream.
template <typename T>
DeviceArray<T> toDevice(DevicePool& pool, std::span<const T> host) {
  DeviceArray<T> device(pool, host.size());
  if (!host.empty()) device.upload(host.data(), host.size());
  return device;
}

}  // namespace gsparql::engine::gpu
