#pragma once
// Adjacency of the predicates queries use, copied to the GPU once and kept
// across queries within a byte budget; the least recently used go first,
// never one the running query uses.
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "engine/gpu/device_memory.cuh"
#include "storage/pcsr_format.h"

namespace gsparql {
class GraphStore;
namespace engine {
struct BoundBgp;
}
}

namespace gsparql::engine::gpu {

// What kernels get: plain pointers, passed by value.
struct DeviceAdjacency {
  const pcsr::Group* groups = nullptr;
  const uint32_t* groupNeighbours = nullptr;
  const uint32_t* keys = nullptr;
  const uint32_t* offsets = nullptr;
  const uint32_t* neighbours = nullptr;
  uint32_t keyCount = 0;
  uint32_t primaryGroups = 0;  // groups a key hashes to (PredicateAdjacency::primaryGroups)
};

// The all-predicates adjacency of one direction (all_predicates_adjacency.h).
struct DeviceAllPredicates {
  const uint32_t* offsets = nullptr;
  const uint32_t* neighbours = nullptr;
  const uint32_t* predicates = nullptr;
  const uint32_t* distinctOffsets = nullptr;
  const uint32_t* distinctNeighbours = nullptr;
  const uint32_t* keyStarts = nullptr;
  const uint32_t* keys = nullptr;
};

class GraphCache {
 public:
  GraphCache(DevicePool& pool, uint64_t budgetBytes) : pool_(pool), budget_(budgetBytes) {}

  void beginQuery() { ++epoch_; }
  // Frees every entry: after the device ran out of memory, before the
  // query goes to the CPU executor.
  void clear() {
    entries_.clear();
    used_ = 0;
  }
  DeviceAdjacency get(const GraphStore& store, pcsr::Direction direction, uint32_t predicate);
  // The predicate's keys in that direction as a bitset over all vertices,
  // built on first use and cached with the adjacency.
  const uint32_t* keyBits(const GraphStore& store, pcsr::Direction direction, uint32_t predicate);
  // Over the predicates of the BGP's graph; built on the host and uploaded
  // on first use, cached like the rest.
  DeviceAllPredicates allPredicates(const GraphStore& store, pcsr::Direction direction, const BoundBgp& bgp);
  // Predicate id -> vertex id of the same term (kNoId where none).
  const uint32_t* predicateVertexIds(const GraphStore& store);
  uint64_t bytesUploadedThisQuery() const { return uploadedThisQuery_; }

 private:
  struct Entry {
    DeviceArray<pcsr::Group> groups;
    DeviceArray<uint32_t> groupNeighbours, keys, offsets, neighbours, keyBits;
    std::vector<DeviceArray<uint32_t>> arrays;  // entries that are not one predicate's adjacency
    DeviceAdjacency view;
    DeviceAllPredicates allView;
    uint64_t bytes = 0;
    uint64_t lastUse = 0;
  };
  using Key = std::tuple<std::string, uint32_t, uint32_t>;  // generation, kind, predicate or graph
  void evictFor(uint64_t bytes);
  void evictIdle();  // every entry the running query does not use
  Entry& entry(const GraphStore& store, pcsr::Direction direction, uint32_t predicate);
  template <typename Upload>
  Entry& cached(const GraphStore& store, uint32_t kind, uint32_t predicate, Upload upload);

  DevicePool& pool_;
  uint64_t budget_;
  uint64_t used_ = 0;
  uint64_t epoch_ = 0;
  uint64_t uploadedThisQuery_ = 0;
  uint64_t lastQueryEpoch_ = 0;
  std::map<Key, Entry> entries_;
};

}  // namespace gsparql::engine::gpu
