#pragma once
// The adjacency over every predicate at once, for BGPs with predicate
// variables: per vertex its (neighbour, predicate) pairs sorted, the distinct
// neighbours, and each predicate's keys. Built on the host from the
// per-predicate CSRs when a query first needs it; the GPU keeps it cached.
#include <cstdint>
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

AllPredicatesAdjacency buildAllPredicatesAdjacency(const GraphStore& store, pcsr::Direction direction);

}  // namespace gsparql::engine::gpu
