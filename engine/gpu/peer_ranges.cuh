#pragma once
// Adjacency too large for one GPU's cache, spread over the GPUs of a host
// and read over NVLink (issue 41: graphs larger than one GPU). A streamed
// adjacency (streaming_plan.h) is cut into key ranges; each range lives on
// one GPU of the set, its home, and a query on any GPU of the set copies it
// from there into its own cache (streamed_adjacency.cuh) instead of from the
// host: the GPUs together hold what none holds alone, and a range crosses
// PCIe once, not once per query and GPU.
//
// Shared by the device objects of one GPU setup (api/shared_gpu_executors.h),
// whose calls run at once on several threads: every member is thread-safe.
// A range is uploaded to the home holding the fewest bytes when a query
// first needs it, kept while held, and evicted least recently used when a
// home's budget is full; a range a query released is freed only after the
// reader's stream has passed its release. An upload copies without the
// set's lock (its room reserved first): queries needing other ranges go on,
// and one needing the same range waits for that copy.
#include <cuda_runtime.h>

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <tuple>
#include <vector>

#include "engine/gpu/graph_cache.cuh"
#include "engine/gpu/partition_stager.cuh"
#include "engine/gpu/streaming_plan.h"

namespace gsparql {
class GraphStore;
}

namespace gsparql::engine::gpu {

// A range being copied to a reader: where it lives, and what it took to put it there.
struct PeerRange {
  DeviceAdjacency view;
  int home = 0;                // the CUDA ordinal that holds it
  uint64_t uploadedBytes = 0;  // 0: it was there already
};

class PeerRanges {
 public:
  // `gpus`: CUDA ordinals (a repeated one: homes sharing a GPU, for tests on
  // one); `bytesPerGpu`: what each home may hold; `readerRangeBytes`: the
  // most a reader's cache takes of one range (ranges are at most that, and
  // at most an eighth of a home). Enables peer access between every pair of
  // distinct GPUs.
  PeerRanges(std::vector<int> gpus, uint64_t bytesPerGpu, uint64_t readerRangeBytes);
  ~PeerRanges();
  PeerRanges(const PeerRanges&) = delete;
  PeerRanges& operator=(const PeerRanges&) = delete;

  // Whether every pair of distinct GPUs can read each other's memory.
  static bool peersCanRead(const std::vector<int>& gpus);

  uint64_t bytesPerGpu() const { return bytesPerGpu_; }
  // Whether ranges of `bytes` in all (plain CSR: rangeBytes) fit the homes
  // at once (each home may take one range beyond its even share).
  bool fits(uint64_t bytes) const;
  // The adjacency's key ranges: the same for every query and GPU.
  std::vector<KeyRange> ranges(const PredicateAdjacency& adjacency) const;

  // The range, uploaded to a home if no home holds it; held (not evicted)
  // until released. Called with the reader's GPU current; leaves it current.
  PeerRange acquire(const GraphStore& store, AdjacencyId id, KeyRange range);
  // What reads the range on `readerStream` (the reader's copy) has been enqueued.
  void release(const GraphStore& store, AdjacencyId id, KeyRange range, cudaStream_t readerStream) noexcept;

  // What the homes on CUDA device `gpu` hold.
  uint64_t bytesOnGpu(int gpu) const;

 private:
  struct Home {
    int gpu = 0;
    uint64_t bytes = 0;
  };
  struct Entry {
    size_t home = 0;
    void* memory = nullptr;  // keys, offsets, neighbours, one allocation
    uint64_t bytes = 0;
    uint64_t lastUse = 0;
    uint32_t holds = 0;
    std::vector<std::unique_ptr<CudaEvent>> readers;  // releases not yet known to have passed
    DeviceAdjacency view;
  };
  // Source of the data (AdjacencyFile::source), direction, predicate, range (first << 32 | end).
  using Key = std::tuple<uint64_t, uint32_t, uint32_t, uint64_t>;
  static Key keyOf(const GraphStore& store, AdjacencyId id, KeyRange range);
  // Reserves room for the range at a home under `lock`, copies it without
  // the lock, and keeps it (held once) under the lock again.
  Entry& upload(std::unique_lock<std::mutex>& lock, const GraphStore& store, AdjacencyId id, KeyRange range,
                const Key& key);
  void evictFor(size_t home, uint64_t bytes);
  void free(Entry& e);

  std::vector<Home> homes_;
  uint64_t bytesPerGpu_;
  uint64_t largestRange_;
  mutable std::mutex mutex_;
  uint64_t clock_ = 0;
  std::map<Key, Entry> entries_;  // uploaded
  std::set<Key> uploading_;       // copying now, their room counted in their home's bytes
  std::condition_variable uploaded_;
};

}  // namespace gsparql::engine::gpu
