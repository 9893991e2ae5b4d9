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
#include "engine/gpu/partition_stager.cuh"
#include "engine/gpu/streaming_plan.h"
#include "storage/pcsr_format.h"

namespace gsparql {
class GraphStore;
namespace engine {
struct BoundBgp;
}
}

namespace gsparql::engine::gpu {

// What kernels get: plain pointers, passed by value. A key range of a
// streamed adjacency has no groups: it is looked up in its plain CSR.
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

// What streaming cost the running query.
struct StreamedRanges {
  uint64_t ranges = 0, bytes = 0;
  uint64_t packed = 0, packedBytes = 0;  // uploads of the lists of few keys (PackedLists)
  double copyMilliseconds = 0;    // from each copy's start to its arrival on the device
  double waitedMilliseconds = 0;  // of those, the time the query waited for them
};

class GraphCache {
 public:
  GraphCache(DevicePool& pool, uint64_t budgetBytes) : pool_(pool), budget_(budgetBytes), stager_(pool) {}

  void beginQuery() {
    ++epoch_;
    streamed_ = {};
  }
  uint64_t budget() const { return budget_; }
  // Frees every entry: after the device ran out of memory, before the
  // executor declines the query (the CPU executor runs it).
  void clear() {
    stager_.drain();
    entries_.clear();
    used_ = 0;
  }
  // Waits for the uploads in flight: before the query's snapshot may go.
  void drain() { stager_.drain(); }
  DeviceAdjacency get(const GraphStore& store, pcsr::Direction direction, uint32_t predicate);
  // Whether get() would find the adjacency here, without copying it.
  bool holds(const GraphStore& store, pcsr::Direction direction, uint32_t predicate) const;
  // The predicate's keys in that direction as a bitset over all vertices,
  // built on first use and cached with the adjacency.
  const uint32_t* keyBits(const GraphStore& store, pcsr::Direction direction, uint32_t predicate);
  // Over the predicates of the BGP's graph; built on the host and uploaded
  // on first use, cached like the rest.
  DeviceAllPredicates allPredicates(const GraphStore& store, pcsr::Direction direction, const BoundBgp& bgp);
  // Predicate id -> vertex id of the same term (kNoId where none).
  const uint32_t* predicateVertexIds(const GraphStore& store);
  uint64_t bytesUploadedThisQuery() const { return uploadedThisQuery_; }

  // A key range of a streamed adjacency, uploaded unless cached; the pool's
  // stream waits for it. Not evicted until released.
  DeviceAdjacency acquire(const GraphStore& store, pcsr::Direction direction, uint32_t predicate, KeyRange range);
  void release(const GraphStore& store, pcsr::Direction direction, uint32_t predicate, KeyRange range);
  // Whether a key range is cached here (acquire would find it, without copying).
  bool holdsRange(const GraphStore& store, pcsr::Direction direction, uint32_t predicate, KeyRange range) const;
  // A key range copied on the pool's stream from another GPU's copy of it
  // (`from`, a home's: peer_ranges.cuh) unless cached, then as acquire.
  DeviceAdjacency acquireCopy(const GraphStore& store, pcsr::Direction direction, uint32_t predicate, KeyRange range,
                              const DeviceAdjacency& from);
  // Starts uploading a range the query acquires next (nothing if cached),
  // so that its copy overlaps the kernels in between.
  void prefetch(const GraphStore& store, pcsr::Direction direction, uint32_t predicate, KeyRange range);
  const StreamedRanges& streamedThisQuery() const { return streamed_; }
  // Lists packed on the host for one pass (not cached), copied now.
  struct PackedOnDevice {
    DeviceArray<uint32_t> keys, offsets, neighbours;
    DeviceAdjacency view;
  };
  PackedOnDevice upload(const PackedLists& packed);

 private:
  struct Entry {
    DeviceArray<pcsr::Group> groups;
    DeviceArray<uint32_t> groupNeighbours, keys, offsets, neighbours, keyBits;
    std::vector<DeviceArray<uint32_t>> arrays;  // entries that are not one predicate's adjacency
    DeviceAdjacency view;
    DeviceAllPredicates allView;
    uint64_t bytes = 0;
    uint64_t lastUse = 0;
    // Key ranges: evictable whenever not held, even by the running query.
    bool isRange = false;
    uint32_t holds = 0;
    std::shared_ptr<StagedUpload> upload;  // until the query first waits for it
  };
  // What holds the data (AdjacencyFile::source, GraphStore::identity), kind,
  // predicate or graph, key range (first << 32 | end). Snapshots of one
  // database share what an update left unchanged, and never each other's
  // changes: the executors outlive them (api/shared_gpu_executors.h).
  using Key = std::tuple<uint64_t, uint32_t, uint32_t, uint64_t>;
  static Key rangeKey(const GraphStore& store, pcsr::Direction direction, uint32_t predicate, KeyRange range);
  bool evictable(const Entry& e) const;
  void evictFor(uint64_t bytes);
  void evictIdle();  // every entry the running query does not use
  // `upload` fills a new entry's arrays (from the host, or from a peer).
  template <typename Upload>
  Entry& rangeEntry(const GraphStore& store, pcsr::Direction direction, uint32_t predicate, KeyRange range,
                    Upload upload);
  Entry& rangeEntry(const GraphStore& store, pcsr::Direction direction, uint32_t predicate, KeyRange range);
  Entry& entry(const GraphStore& store, pcsr::Direction direction, uint32_t predicate);
  template <typename Upload>
  Entry& cached(uint64_t source, uint32_t kind, uint32_t predicate, Upload upload, uint64_t range = 0);

  DevicePool& pool_;
  uint64_t budget_;
  uint64_t used_ = 0;
  uint64_t epoch_ = 0;
  uint64_t uploadedThisQuery_ = 0;
  uint64_t lastQueryEpoch_ = 0;
  StreamedRanges streamed_;
  std::map<Key, Entry> entries_;
  PartitionStager stager_;  // after entries_: drained before the arrays it writes go
};

}  // namespace gsparql::engine::gpu
