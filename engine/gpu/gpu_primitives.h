#pragma once
// Single GPU building blocks behind plain C++ calls, so tests can check each
// against a host computation on random inputs.
#include <cstdint>
#include <vector>

namespace gsparql {
class PredicateAdjacency;
}

namespace gsparql::engine::gpu {

std::vector<uint32_t> exclusiveScanOnGpu(const std::vector<uint32_t>& values);
std::vector<uint64_t> exclusiveScanOnGpu(const std::vector<uint64_t>& values);

// For each vertex: the size of its neighbour list and its first neighbour
// (0xFFFFFFFF when empty), found through the PCSR groups or, with
// `plainCsr`, by binary search over the sorted keys.
struct Lookups {
  std::vector<uint32_t> sizes, first;
};
Lookups lookupsOnGpu(const PredicateAdjacency& adjacency, const std::vector<uint32_t>& vertices, bool plainCsr);

// For each probe: whether it is in the sorted `list` (the join's membership test).
std::vector<uint8_t> containsOnGpu(const std::vector<uint32_t>& list, const std::vector<uint32_t>& probes);

}  // namespace gsparql::engine::gpu
