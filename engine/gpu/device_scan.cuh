#pragma once
// Exclusive prefix sums on the pool's stream (CUB), and reading one value back.
#include <cub/device/device_scan.cuh>

#include <tuple>

#include "engine/gpu/device_memory.cuh"
#include "engine/gpu/small_scan.cuh"

namespace gsparql::engine::gpu {

template <typename In, typename Out>
void exclusiveScan(DevicePool& pool, const In* in, Out* out, size_t n) {
  if (n <= kSmallScanLimit) return launchSmallScan(in, out, static_cast<uint32_t>(n), pool.stream());
  size_t bytes = 0;
  GSPARQL_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, n, pool.stream()));
  DeviceArray<unsigned char> scratch(pool, bytes);
  GSPARQL_CUDA(cub::DeviceScan::ExclusiveSum(scratch.data(), bytes, in, out, n, pool.stream()));
}

// Waits for the stream once, however many values are read.
template <typename... T>
auto readBack(DevicePool& pool, const T*... deviceValues) {
  std::tuple<T...> values;
  std::apply([&](T&... v) {
    (GSPARQL_CUDA(cudaMemcpyAsync(&v, deviceValues, sizeof(T), cudaMemcpyDeviceToHost, pool.stream())), ...);
  }, values);
  pool.synchronize();
  if constexpr (sizeof...(T) == 1) {
    return std::get<0>(values);
  } else {
    return values;
  }
}

}  // namespace gsparql::engine::gpu
