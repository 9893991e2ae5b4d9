#pragma once
// What one run (gpu_run.cuh) streams (streaming_plan.h), and its passes over
// it: the key ranges of each streamed adjacency, cut on first use in the
// run, and the packed lists of a level's few keys. Where the device has
// peers (peer_ranges.cuh) whose homes can hold all it streams, the ranges
// are theirs, copied into the device's cache from whichever GPU holds them
// (a level of few keys still uploads their packed lists). Part of the run's
// state, so it goes with the run.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/gpu/gpu_device.cuh"
#include "engine/gpu/peer_ranges.cuh"
#include "engine/gpu/streaming_plan.h"
#include "storage/graph_store.h"

namespace gsparql::engine::gpu {

class StreamedAdjacency {
 public:
  StreamedAdjacency(Device& device, const GraphStore& store, StreamingPlan plan);

  bool any() const { return !plan_.streamed.empty(); }
  bool streams(pcsr::Direction direction, uint32_t predicate) const { return plan_.streams(direction, predicate); }

  // `pass` over a streamed adjacency as the `rows` keys in `keys` (null:
  // every key) need it. Few rows: their keys are read to the host and, where
  // their lists are small, packed and uploaded for one pass; otherwise one
  // pass per key range that holds a key, the next range uploading while it
  // runs, each held (not evicted) during its pass.
  template <typename Pass>
  void forEachRange(AdjacencyId id, const uint32_t* keys, uint32_t rows, Pass&& pass) {
    std::vector<KeyRange> ranges;
    if (keys != nullptr && rows <= device_.options().streamedKeysRead) {
      const std::vector<uint32_t> values = keysOnHost(keys, rows);
      const PredicateAdjacency& host = store_.adjacency(id.first).predicate(id.second);
      if (const auto packed = packLists(host, values, plan_.partitionBytes)) {
        const GraphCache::PackedOnDevice lists = device_.cache().upload(*packed);
        return pass(lists.view);
      }
      ranges = rangesHolding(id, values);
    } else {
      ranges = rangesOf(id);
    }
    for (size_t i = 0; i < ranges.size(); ++i) {
      const DeviceAdjacency range = acquire(id, ranges[i]);
      struct Hold {
        StreamedAdjacency& streamed;
        AdjacencyId id;
        KeyRange range;
        ~Hold() { streamed.release(id, range); }
      } hold{*this, id, ranges[i]};
      if (i + 1 < ranges.size() && peers_ == nullptr) device_.cache().prefetch(store_, id.first, id.second, ranges[i + 1]);
      pass(range);
    }
  }

  // Starts uploading the adjacency's first key range.
  void prefetchFirstRange(AdjacencyId id);

  // What --explain says about the run's streaming (empty where it streamed nothing).
  std::string note() const;

 private:
  std::vector<uint32_t> keysOnHost(const uint32_t* keys, uint32_t rows) const;
  // A range for one pass, held in the cache until released: uploaded from
  // the host, or copied from a peer's home.
  DeviceAdjacency acquire(AdjacencyId id, KeyRange range);
  void release(AdjacencyId id, KeyRange range);
  // The key ranges of a streamed adjacency, cut on first use in the run.
  const std::vector<KeyRange>& rangesOf(AdjacencyId id);
  // The ranges that hold one of `values`.
  std::vector<KeyRange> rangesHolding(AdjacencyId id, const std::vector<uint32_t>& values);

  Device& device_;
  const GraphStore& store_;
  StreamingPlan plan_;
  PeerRanges* peers_;  // the homes every streamed range is copied from (null: from the host)
  std::map<AdjacencyId, std::vector<KeyRange>> ranges_;
  // Ranges copied from the homes into the cache, their bytes, those from
  // another GPU than the device's, and what was uploaded to homes for this run.
  struct {
    uint64_t copied = 0, copiedBytes = 0, fromAnotherGpu = 0, uploaded = 0, uploadedBytes = 0;
  } peerReads_;
};

}  // namespace gsparql::engine::gpu
