#include <algorithm>
#include <cstdint>

#include "engine/gpu/device_memory.cuh"

namespace gsparql::engine::gpu {

DevicePool::DevicePool(uint64_t capacity) : capacity_(capacity) {
  GSPARQL_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  GSPARQL_CUDA(cudaGetDevice(&device_));
  cudaMemPool_t pool;
  GSPARQL_CUDA(cudaDeviceGetDefaultMemPool(&pool, device_));
  // Keep freed memory in the pool instead of returning it at every sync.
  uint64_t keep = UINT64_MAX;
  GSPARQL_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
}

DevicePool::~DevicePool() {
  cudaStreamSynchronize(stream_);
  cudaStreamDestroy(stream_);
}

void* DevicePool::allocate(size_t bytes) {
  if (capacity_ != 0 && bytes > capacity_ - std::min(inUse_, capacity_)) throw DeviceOutOfMemory(bytes);
  void* p = nullptr;
  const cudaError_t status = cudaMallocAsync(&p, bytes == 0 ? 4 : bytes, stream_);
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError();  // not sticky: clear it so that later calls do not report it
    throw DeviceOutOfMemory(bytes);
  }
  GSPARQL_CUDA(status);
  inUse_ += bytes;
  return p;
}

void DevicePool::release(void* p, size_t bytes) {
  cudaFreeAsync(p, stream_);
  inUse_ -= bytes;
}

}  // namespace gsparql::engine::gpu
