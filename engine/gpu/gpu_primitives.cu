#include "engine/gpu/gpu_primitives.h"

#include "engine/gpu/device_scan.cuh"
#include "engine/gpu/kernels.cuh"
#include "storage/adjacency.h"

namespace gsparql::engine::gpu {
namespace {

template <typename T>
DeviceArray<T> toDevice(DevicePool& pool, std::span<const T> host) {
  DeviceArray<T> device(pool, host.size());
  if (!host.empty()) device.upload(host.data(), host.size());
  return device;
}

template <typename T>
std::vector<T> scan(const std::vector<T>& values) {
  DevicePool pool;
  auto in = toDevice<T>(pool, values);
  DeviceArray<T> out(pool, values.size());
  exclusiveScan(pool, in.data(), out.data(), values.size());
  return out.download();
}

__global__ void lookupKernel(DeviceAdjacency a, const uint32_t* vertices, uint32_t n, bool plainCsr,
                             uint32_t* sizes, uint32_t* first) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  List list = lookup(a, vertices[i], plainCsr);
  sizes[i] = list.size;
  first[i] = list.size > 0 ? list.data[0] : pcsr::kNone;
}

__global__ void containsKernel(List list, const uint32_t* probes, uint32_t n, uint8_t* found) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) found[i] = containsSorted(list, probes[i]);
}

uint32_t blocks(size_t n) { return static_cast<uint32_t>((n + 255) / 256); }

}  // namespace

std::vector<uint32_t> exclusiveScanOnGpu(const std::vector<uint32_t>& values) { return scan(values); }
std::vector<uint64_t> exclusiveScanOnGpu(const std::vector<uint64_t>& values) { return scan(values); }

Lookups lookupsOnGpu(const PredicateAdjacency& host, const std::vector<uint32_t>& vertices, bool plainCsr) {
  DevicePool pool;
  auto groups = toDevice(pool, host.groups());
  auto groupNeighbours = toDevice(pool, host.groupNeighbours());
  auto keys = toDevice(pool, host.keys());
  auto offsets = toDevice(pool, host.offsets());
  auto neighbours = toDevice(pool, host.neighbours());
  DeviceAdjacency a{groups.data(), groupNeighbours.data(), keys.data(), offsets.data(), neighbours.data(),
                    host.section().keyCount};
  auto probe = toDevice<uint32_t>(pool, vertices);
  DeviceArray<uint32_t> sizes(pool, vertices.size()), first(pool, vertices.size());
  if (!vertices.empty()) {
    lookupKernel<<<blocks(vertices.size()), 256, 0, pool.stream()>>>(a, probe.data(), vertices.size(), plainCsr,
                                                                     sizes.data(), first.data());
  }
  GSPARQL_CUDA(cudaGetLastError());
  return {sizes.download(), first.download()};
}

std::vector<uint8_t> containsOnGpu(const std::vector<uint32_t>& list, const std::vector<uint32_t>& probes) {
  DevicePool pool;
  auto sorted = toDevice<uint32_t>(pool, list);
  auto probe = toDevice<uint32_t>(pool, probes);
  DeviceArray<uint8_t> found(pool, probes.size());
  if (!probes.empty()) {
    containsKernel<<<blocks(probes.size()), 256, 0, pool.stream()>>>(
        List{sorted.data(), static_cast<uint32_t>(list.size())}, probe.data(), probes.size(), found.data());
  }
  GSPARQL_CUDA(cudaGetLastError());
  return found.download();
}

}  // namespace gsparql::engine::gpu
