#pragma once
// Which adjacency a query streams to the GPU, and in which pieces (plain C++).
// When the adjacency a query reads outgrows the GPU's cache, the largest are
// not uploaded whole: each is cut into key ranges of at most a partition's
// bytes, uploaded while kernels run on the ranges already there (Graphie,
// SGSI's segment pipeline). A range is a slice of the plain CSR (keys,
// offsets, neighbours), so it is copied from the mapped file as it lies.
#include <cstdint>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "storage/pcsr_format.h"

namespace gsparql {
class PredicateAdjacency;
}

namespace gsparql::engine::gpu {

// Keys [first, end) of one predicate's adjacency in one direction.
struct KeyRange {
  uint32_t first = 0, end = 0;
  friend bool operator==(const KeyRange&, const KeyRange&) = default;
};

// Device bytes of a key range as a plain CSR: its keys, offsets and neighbours.
uint64_t rangeBytes(const PredicateAdjacency& adjacency, KeyRange range);
// Device bytes of the whole adjacency with its PCSR groups (what the cache uploads).
uint64_t wholeBytes(const PredicateAdjacency& adjacency);
// Consecutive key ranges covering every key, each of at most `maxBytes`, the
// first three of an eighth, a quarter and a half of it (a key whose list
// alone is larger gets a range of its own).
std::vector<KeyRange> keyRanges(const PredicateAdjacency& adjacency, uint64_t maxBytes);

// The lists of a few keys, packed as a plain CSR: what a level of few rows
// reads of a streamed adjacency, uploaded instead of the ranges that hold
// them (a light query's lookups cost kilobytes, not ranges of megabytes).
struct PackedLists {
  std::vector<uint32_t> keys, offsets, neighbours;  // keys ascending, each once; offsets from 0
  uint64_t bytes() const { return sizeof(uint32_t) * (keys.size() + offsets.size() + neighbours.size()); }
};
// The lists of `values` (any order, repeats allowed) that have one; nullopt
// where they take more than `maxBytes`.
std::optional<PackedLists> packLists(const PredicateAdjacency& adjacency, std::vector<uint32_t> values,
                                     uint64_t maxBytes);

using AdjacencyId = std::pair<pcsr::Direction, uint32_t>;  // direction, predicate

struct AdjacencyUse {
  AdjacencyId id;
  uint64_t bytes = 0;  // wholeBytes
};

struct StreamingPlan {
  std::set<AdjacencyId> streamed;  // empty: everything is uploaded whole
  uint64_t partitionBytes = 0;     // the most bytes of one key range
  uint64_t streamedBytes = 0;      // of the streamed adjacencies, whole
  bool streams(pcsr::Direction d, uint32_t predicate) const { return streamed.contains({d, predicate}); }
};

// What a query reading `uses` (each adjacency once) streams under a cache of
// `cacheBytes`: nothing where all fit; otherwise the largest, until the rest
// take at most half the cache. Each streamed adjacency holds two ranges at a
// time (one in use, the next uploading): together at most the other half.
StreamingPlan planStreaming(std::vector<AdjacencyUse> uses, uint64_t cacheBytes);

}  // namespace gsparql::engine::gpu
