#include "engine/gpu/all_predicates_adjacency.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <numeric>

#include "storage/graph_store.h"

namespace gsparql::engine::gpu {
namespace {

// Exclusive prefix sum in place; the last entry becomes the total.
void toOffsets(std::vector<uint32_t>& counts) {
  std::exclusive_scan(counts.begin(), counts.end(), counts.begin(), 0u);
}

// Each vertex's pairs, packed (neighbour << 32 | predicate) and sorted.
std::vector<uint64_t> sortedPairs(const AdjacencyFile& file, std::span<const uint32_t> predicates,
                                  const std::vector<uint32_t>& offsets) {
  std::vector<uint64_t> pairs(offsets.back());
  std::vector<uint32_t> cursor(offsets.begin(), offsets.end() - 1);
  for (uint32_t p : predicates) {
    const PredicateAdjacency& a = file.predicate(p);
    for (size_t k = 0; k < a.keys().size(); ++k) {
      for (uint32_t n : a.neighboursAt(k)) pairs[cursor[a.keys()[k]]++] = uint64_t{n} << 32 | p;
    }
  }
  tbb::parallel_for(size_t{0}, offsets.size() - 1, [&](size_t v) {
    std::sort(pairs.begin() + offsets[v], pairs.begin() + offsets[v + 1]);
  });
  return pairs;
}

}  // namespace

AllPredicatesAdjacency buildAllPredicatesAdjacency(const GraphStore& store, pcsr::Direction direction,
                                                   std::span<const uint32_t> predicates) {
  const AdjacencyFile& file = store.adjacency(direction);
  const auto vertexCount = static_cast<size_t>(store.catalog().vertexCount);
  AllPredicatesAdjacency out;
  out.offsets.assign(vertexCount + 1, 0);
  out.keyStarts.assign(file.predicateCount() + 1, 0);
  for (uint32_t p : predicates) {  // ascending, as keyStarts reads them
    const PredicateAdjacency& a = file.predicate(p);
    for (size_t k = 0; k < a.keys().size(); ++k) out.offsets[a.keys()[k]] += a.neighboursAt(k).size();
    out.keyStarts[p] = static_cast<uint32_t>(a.keys().size());
    out.keys.insert(out.keys.end(), a.keys().begin(), a.keys().end());
  }
  toOffsets(out.offsets);
  toOffsets(out.keyStarts);

  const std::vector<uint64_t> pairs = sortedPairs(file, predicates, out.offsets);
  out.neighbours.resize(pairs.size());
  out.predicates.resize(pairs.size());
  out.distinctOffsets.assign(vertexCount + 1, 0);
  for (size_t v = 0; v < vertexCount; ++v) {
    for (uint32_t i = out.offsets[v]; i < out.offsets[v + 1]; ++i) {
      out.neighbours[i] = static_cast<uint32_t>(pairs[i] >> 32);
      out.predicates[i] = static_cast<uint32_t>(pairs[i]);
      if (i == out.offsets[v] || out.neighbours[i] != out.neighbours[i - 1]) {
        out.distinctNeighbours.push_back(out.neighbours[i]);
        ++out.distinctOffsets[v];
      }
    }
  }
  toOffsets(out.distinctOffsets);
  return out;
}

}  // namespace gsparql::engine::gpu
