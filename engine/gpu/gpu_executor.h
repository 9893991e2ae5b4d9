#pragma once
// The GPU backend behind a plain C++ interface: nothing here needs nvcc, so
// the rest of the project builds the same with or without CUDA. A device
// object (gpu_device.cuh) owns what is kept on one GPU, or one share of it;
// an executor runs each call on the device it is bound to. What the GPU
// cannot run it declines (ExecutorDeclined, bgp/executor.h): the placer
// (placement/fallback_executor.h) runs that on the CPU executor.
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "engine/bgp/executor.h"
#include "engine/gpu/load_balance.h"

namespace gsparql::engine {

namespace gpu {
class Device;
class PeerRanges;
}

struct GpuOptions {
  // The CUDA device (its ordinal) the device object lives on.
  int device = 0;
  // Device memory a device object may hold (adjacency, tables, buffers); 0:
  // what is free when it is made. Steps that would outgrow it run
  // depth-first over slices of rows.
  uint64_t memoryBytes = 0;
  // Device objects sharing the GPU at once, each bound to an executor of the
  // pool (engine/placement/executor_pool.h): each may hold this share of the limit.
  uint32_t memoryShares = 1;
  uint64_t graphCacheBytes = 0;     // device memory for cached adjacency; 0: a quarter of the memory limit
  // Tests: a device of this many bytes (0: the real one's). Unlike
  // memoryBytes, allocations beyond it fail, as on a smaller GPU, and the
  // executor declines the BGP that asked (the placer runs it on the CPU executor).
  uint64_t simulatedDeviceBytes = 0;
  // Ablations (SGSI's Table 3), each replacing one technique by the plain one:
  bool plainCsrLookups = false;     // binary search over sorted keys instead of PCSR groups
  bool twoPassJoin = false;         // count, then write, instead of Prealloc-Combine
  bool naiveSetOperations = false;  // one thread per row with linear merges instead of warp-level probes
  // Light queries run each step as one kernel with no host synchronisation
  // (fused_step.cuh); off, or with any ablation, every step takes the general path.
  bool fuseLightSteps = true;
  uint32_t fusedCapacity = 1u << 20;  // candidates per fused step; beyond, the general path
  // Blocks of a fused step: 0, one per kCandidatesPerFusedBlock rows read or
  // candidates the plan expects (a cooperative grid when more than one);
  // otherwise this many.
  uint32_t fusedBlocks = 0;
  // Candidates one general-path step holds at once; a step with more runs
  // depth-first over slices of rows. 0: half of the memory left under the
  // limit when the step starts.
  uint64_t stepCandidateBudget = 0;
  // A level of at most this many rows reads the keys it looks up in a
  // streamed adjacency to the host, and uploads their packed lists (or, where
  // those are large, only the key ranges that hold them) instead of every
  // key range. 0: every range (tests).
  uint32_t streamedKeysRead = 1u << 16;
  // Load balance of the general path (docs/gpu.md): the most candidates of a
  // row that goes one per warp, pooled, or to one block; more, split across
  // blocks. All zero: chosen per step from the histogram of row work.
  gpu::Thresholds loadBalance;
  // The GPUs of the setup as homes of the adjacency too large for this
  // device's cache, which it then copies from them over NVLink rather than
  // from the host (gpu/peer_ranges.cuh); null: from the host.
  std::shared_ptr<gpu::PeerRanges> peers;
};

// True when this build has the GPU backend and a CUDA device is present.
bool gpuAvailable();
// The CUDA devices present (0 without the GPU backend).
int gpuCount();

// The memory, streams and adjacency cache of one GPU share (the options'
// memory over memoryShares) on the options' device, kept between queries. Throws QueryError when
// the build has no GPU backend or no device is present.
std::shared_ptr<gpu::Device> makeGpuDevice(const GpuOptions& options = {});

// The GPUs `gpus` (CUDA ordinals) as homes of key ranges that each copies
// from the others over NVLink (gpu/peer_ranges.cuh), each holding up to
// `bytesPerGpu`, by default a quarter of its memory limit. `readers`: the
// options of the device objects that will copy them (their memory limit and
// shares, their cache), which size the ranges so that a reader's cache takes
// four. Null where there are fewer than two GPUs, where a pair cannot read
// each other's memory, or where `bytesPerGpu` is 0.
std::shared_ptr<gpu::PeerRanges> makePeerRanges(const std::vector<int>& gpus, std::optional<uint64_t> bytesPerGpu,
                                                const GpuOptions& readers);
// What the homes of `peers` on CUDA device `gpu` hold.
uint64_t peerBytesOnGpu(const gpu::PeerRanges& peers, int gpu);

// An executor that runs one call at a time on `device`, which it shares
// (and keeps as long as it lives).
std::unique_ptr<Executor> makeGpuExecutor(std::shared_ptr<gpu::Device> device);
// The same on a device of its own.
std::unique_ptr<Executor> makeGpuExecutor(const GpuOptions& options = {});

}  // namespace gsparql::engine
