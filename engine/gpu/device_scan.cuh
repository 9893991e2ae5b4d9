#pragma once
// Exclusive prefix sums on the pool's stream (CUB), and reading one value back.
#include <cub/device/device_scan.cuh>

#include "engine/gpu/device_memory.cuh"

namespace gsparql::engine::gpu {

template <typename In, typename Out>
void exclusiveScan(DevicePool& pool, const In* in, Out* out, size_t n) {
  size_t bytes = 0;
  GSPARQL_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, n, pool.stream()));
  DeviceArray<unsigned char> scratch(pool, bytes);
  GSPARQL_CUDA(cub::DeviceScan::ExclusiveSum(scratch.data(), bytes, in, out, n, pool.stream()));
}

template <typename T>
T readBack(DevicePool& pool, const T* deviceValue) {
  T value{};
  GSPARQL_CUDA(cudaMemcpyAsync(&value, deviceValue, sizeof(T), cudaMemcpyDeviceToHost, pool.stream()));
  pool.synchronize();
  return value;
}

}  // namespace gsparql::engine::gpu
