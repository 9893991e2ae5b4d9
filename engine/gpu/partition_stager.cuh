#pragma once
// Host-to-device copies of adjacency ranges that overlap the kernels: a
// background thread copies each range from the mapped file into one of two
// pinned staging buffers and sends it to the device on a copy stream of its
// own, while the pool's stream goes on with the query (double buffering).
// The pool's stream waits for a range only when a kernel needs it.
#include <cuda_runtime.h>

#include <cstddef>
#include <future>
#include <memory>
#include <vector>

#include "engine/gpu/device_memory.cuh"

namespace gsparql::engine::gpu {

class CudaEvent {
 public:
  CudaEvent() { GSPARQL_CUDA(cudaEventCreateWithFlags(&event_, cudaEventDisableTiming)); }
  ~CudaEvent() { cudaEventDestroy(event_); }
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

// One host range and where it goes on the device.
struct HostToDevice {
  const void* host = nullptr;
  void* device = nullptr;
  size_t bytes = 0;
};

// A range on its way: ready on the device once `ready` has passed.
struct StagedUpload {
  std::shared_future<double> milliseconds;  // the copy's wall time, from its start to its arrival
  CudaEvent ready;
};

class PartitionStager {
 public:
  explicit PartitionStager(DevicePool& pool);
  ~PartitionStager();
  PartitionStager(const PartitionStager&) = delete;
  PartitionStager& operator=(const PartitionStager&) = delete;

  // Starts copying; the device arrays are allocated on the pool's stream
  // before the call. Uploads run one after another, in the order started.
  std::shared_ptr<StagedUpload> start(std::vector<HostToDevice> copies);
  // Makes the pool's stream wait for `upload`; returns how long the host
  // waited for it to arrive (0: it had arrived, the copy was hidden).
  double await(const StagedUpload& upload);
  // Waits for every upload started: before the host memory or the device
  // arrays they copy may go.
  void drain();

 private:
  static constexpr size_t kBufferBytes = size_t{8} << 20;
  struct Buffers;
  double copy(const std::vector<HostToDevice>& copies, cudaEvent_t allocated, cudaEvent_t ready);

  DevicePool& pool_;
  std::unique_ptr<Buffers> buffers_;  // made on first use
  std::shared_future<double> last_;
};

}  // namespace gsparql::engine::gpu
