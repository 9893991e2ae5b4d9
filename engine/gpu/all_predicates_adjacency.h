#pragma once
// The adjacency over every predicate of one graph at once, for BGPs with predicate
// variables: per vertex its (neighbour, predicate) pairs sorted, the distinct
// neighbours, and each predicate's keys. Built on the host from the
// per-predicate CSRs when a query first needs it; the GPU keeps it cached.
#include <cstdint>
#include <span>
#include <vector>

#include "storage/pcsr_format.h"

namespace gsparql {
class GraphStore;
}

namespace gsparql::engine::gpu {

struct AllPredicatesAdjacency {
  std::vector<uint32_t> offsets;     // vertex -> its pairs; vertexCount + 1
  std::vector<uint32_t> neighbours;  // pairs sorted by neighbour, then predicate
  std::vector<uint32_t> predicates;
  std::vector<uint32_t> distinctOffsets;  // vertex -> its distinct neighbours; vertexCount + 1
  std::vector<uint32_t> distinctNeighbours;
  std::vector<uint32_t> keyStarts;  // predicate -> its keys; predicateCount + 1
  std::vector<uint32_t> keys;
};

// `predicates`: the graph's predicate ids (storage/named_graphs.h); others have no keys.
AllPredicatesAdjacency buildAllPredicatesAdjacency(const GraphStore& store, pcsr::Direction direction,
                                                   std::span<const uint32_t> predicates);

}  // namespace gsparql::engine::gpu
