#pragma once
// One GPU, or one share of one (GpuOptions::memoryShares): the device memory
// a GPU executor may hold and what it keeps there across queries: the
// stream-ordered pool and its stream, the adjacency cache (with the copy
// stream of its streamed ranges) and the light path's buffers. Made once
// (makeGpuDevice, gpu_executor.h) and used by the executor bound to it; a
// call's own state lives in its run (gpu_run.cuh), never here.
//
// Not thread-safe: one call at a time uses a device, as one call at a time
// uses its executor (the executor pool, placement/executor_pool.h, leases
// an executor to one call at a time).
#include <cuda_runtime.h>

#include <array>
#include <cstdint>
#include <memory>

#include "engine/bgp/executor.h"
#include "engine/gpu/device_memory.cuh"
#include "engine/gpu/fused_step.cuh"
#include "engine/gpu/gpu_executor.h"
#include "engine/gpu/graph_cache.cuh"

namespace gsparql::engine::gpu {

// Buffers of the light-query path, allocated on first use: two sets of
// columns (read one, write the other) and the per-step scratch arrays.
struct FusedWorkspace {
  FusedWorkspace(DevicePool& pool, uint32_t capacity);
  ~FusedWorkspace();
  FusedWorkspace(const FusedWorkspace&) = delete;
  FusedWorkspace& operator=(const FusedWorkspace&) = delete;
  // Device milliseconds between two recorded events (stepEnds[k]: after step k - 1).
  double milliseconds(size_t from, size_t to) const;
  uint32_t* column(int set, uint32_t c) { return columnSets[set].data() + size_t{c} * capacity; }
  // One block for a step the plan expects to be small; more, up to all that
  // fit, for larger ones. Its work is sizing the rows it reads and filtering
  // their candidates, not the rows it keeps: a step estimated to keep a few
  // thousand of 710,000 rows read (WatDiv's K6 counted from ?c) took 14 ms
  // on one block to find that its candidates overflow.
  uint32_t blocksFor(const PlanStep& step, double rowsBefore, uint32_t fixed) const;

  uint32_t capacity;
  uint32_t gridLimit;
  DeviceArray<FusedState> state;
  DeviceArray<List> lists;
  DeviceArray<uint64_t> rowStarts;
  DeviceArray<uint32_t> survivorValues, survivorRows;
  DeviceArray<uint64_t> blockTotals;
  DeviceArray<uint32_t> columnSets[2];
  FusedBuffers buffers;
  std::array<cudaEvent_t, kMaxSteps + 1> stepEnds{};  // [0]: before the first step
};

// The device memory a device object made with `options` may hold: what is
// free on its GPU (made current) or less where the options say so
// (--gpu-memory), shared with the device objects made beside it.
uint64_t memoryLimit(const GpuOptions& options);

class Device {
 public:
  explicit Device(const GpuOptions& options);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  // Makes its GPU the calling thread's current device. Every entry from the
  // host (an executor's call, the walks, preloading) selects it first: the
  // threads that call (a server's workers) move between the GPUs.
  void select() const;

  const GpuOptions& options() const { return options_; }
  DevicePool& pool() { return pool_; }
  GraphCache& cache() { return cache_; }
  const GraphCache& cache() const { return cache_; }
  // Where what `plan` streams comes from (peer_ranges.cuh): the setup's
  // peers, where their homes can hold all of it and this cache cannot keep
  // it (half of it is left to streamed ranges); else null, and it streams
  // from the host. What can stay in the cache is uploaded once and read
  // locally after, wherever it came from.
  PeerRanges* peersFor(const StreamingPlan& plan, const GraphStore& store) const;
  // Its buffers take an eighth of the memory limit at most.
  FusedWorkspace& fusedWorkspace();

  // Candidates one step may hold: half of the memory left under the limit,
  // each candidate taking `bytesPerCandidate`; at least an eighth of the
  // limit, for when the adjacency a query needs fills it (it is not
  // streamed yet) and slices would otherwise shrink to nothing.
  uint64_t candidateBudget(double bytesPerCandidate) const;

  // The adjacency the plan's steps read that the cache lacks (streamed
  // adjacency is copied again by every query, unless peers' homes hold it:
  // then it is copied once, and not counted).
  uint64_t bytesToCopy(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store) const;
  // Both directions of every predicate, in id order, each that still fits
  // the cache's budget (one that would not is left to the queries, which
  // stream it); until the device has no room left.
  void preload(const GraphStore& store);
  // After the device refused an allocation (a graph or a query larger than
  // it), everything it holds (cache, light-path buffers): the next call
  // starts from an empty device.
  void freeMemory();

 private:
  static int selected(int device);  // selects `device`, before the members below allocate on it

  GpuOptions options_;
  int device_;
  uint64_t memoryLimit_;
  DevicePool pool_;
  GraphCache cache_;
  std::unique_ptr<FusedWorkspace> fused_;  // after pool_: freed before it
};

}  // namespace gsparql::engine::gpu
