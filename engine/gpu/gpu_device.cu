#include "engine/gpu/gpu_device.cuh"

#include <algorithm>
#include <cmath>

#include "engine/gpu/gpu_steps.h"
#include "engine/gpu/peer_ranges.cuh"
#include "storage/graph_store.h"

namespace gsparql::engine::gpu {
uint64_t memoryLimit(const GpuOptions& options) {
  GSPARQL_CUDA(cudaSetDevice(options.device));
  size_t free = 0, total = 0;
  GSPARQL_CUDA(cudaMemGetInfo(&free, &total));
  uint64_t limit = options.memoryBytes ? std::min<uint64_t>(options.memoryBytes, free) : free;
  if (options.simulatedDeviceBytes) limit = std::min(limit, options.simulatedDeviceBytes);
  return limit / std::max(1u, options.memoryShares);
}

FusedWorkspace::FusedWorkspace(DevicePool& pool, uint32_t capacity)
    : capacity(capacity), gridLimit(fusedGridLimit()), state(pool, 1), lists(pool, capacity),
      rowStarts(pool, size_t{capacity} + 1), survivorValues(pool, capacity), survivorRows(pool, capacity),
      blockTotals(pool, 2 * size_t{gridLimit}),
      columnSets{DeviceArray<uint32_t>(pool, size_t{kMaxColumns} * capacity),
                 DeviceArray<uint32_t>(pool, size_t{kMaxColumns} * capacity)} {
  buffers = {capacity,           state.data(),        lists.data(), rowStarts.data(), survivorValues.data(),
             survivorRows.data(), blockTotals.data()};
  for (cudaEvent_t& e : stepEnds) GSPARQL_CUDA(cudaEventCreate(&e));
}

FusedWorkspace::~FusedWorkspace() {
  for (cudaEvent_t e : stepEnds) cudaEventDestroy(e);
}

double FusedWorkspace::milliseconds(size_t from, size_t to) const {
  float ms = 0;
  GSPARQL_CUDA(cudaEventElapsedTime(&ms, stepEnds[from], stepEnds[to]));
  return ms;
}

uint32_t FusedWorkspace::blocksFor(const PlanStep& step, double rowsBefore, uint32_t fixed) const {
  const double work = std::max({rowsBefore, step.estimatedCandidates, step.estimatedRows});
  const double blocks = fixed ? fixed : std::ceil(work / kCandidatesPerFusedBlock);
  return static_cast<uint32_t>(std::clamp(blocks, 1.0, static_cast<double>(gridLimit)));
}

Device::Device(const GpuOptions& options)
    : options_(options), device_(selected(options.device)), memoryLimit_(memoryLimit(options)),
      pool_(options.simulatedDeviceBytes),
      cache_(pool_, options.graphCacheBytes ? options.graphCacheBytes : memoryLimit_ / 4) {}

// The members free their memory after this body, on the device it selects
// (unchecked: a destructor must not throw).
Device::~Device() { cudaSetDevice(device_); }

int Device::selected(int device) {
  GSPARQL_CUDA(cudaSetDevice(device));
  return device;
}

void Device::select() const { GSPARQL_CUDA(cudaSetDevice(device_)); }

FusedWorkspace& Device::fusedWorkspace() {
  constexpr uint64_t kBytesPerCandidate =
      sizeof(List) + sizeof(uint64_t) + 2 * sizeof(uint32_t) + 2 * kMaxColumns * sizeof(uint32_t);
  const uint64_t fits = std::max<uint64_t>(1024, memoryLimit_ / 8 / kBytesPerCandidate);
  if (!fused_) fused_ = std::make_unique<FusedWorkspace>(pool_, std::min<uint64_t>(options_.fusedCapacity, fits));
  return *fused_;
}

uint64_t Device::candidateBudget(double bytesPerCandidate) const {
  if (options_.stepCandidateBudget != 0) return options_.stepCandidateBudget;
  // The ranges this GPU holds for its peers take their share of every device object's limit.
  const uint64_t homed = options_.peers ? options_.peers->bytesOnGpu(device_) / std::max(1u, options_.memoryShares) : 0;
  const uint64_t used = pool_.bytesInUse() + homed;
  const double left = used < memoryLimit_ ? static_cast<double>(memoryLimit_ - used) : 0;
  const double candidates = std::max(left / 2, static_cast<double>(memoryLimit_) / 8) / bytesPerCandidate;
  return std::max<uint64_t>(4096, static_cast<uint64_t>(candidates));
}

PeerRanges* Device::peersFor(const StreamingPlan& plan, const GraphStore& store) const {
  PeerRanges* peers = options_.peers.get();
  if (plan.streamed.empty() || peers == nullptr || plan.streamedBytes <= cache_.budget() / 2) return nullptr;
  uint64_t rangesBytes = 0;  // what the homes would hold: plain CSR, no PCSR groups
  for (const auto& [direction, predicate] : plan.streamed) {
    const PredicateAdjacency& adjacency = store.adjacency(direction).predicate(predicate);
    rangesBytes += rangeBytes(adjacency, {0, adjacency.keyCount()});
  }
  return peers->fits(rangesBytes) ? peers : nullptr;
}

uint64_t Device::bytesToCopy(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store) const {
  const std::vector<AdjacencyUse> uses = adjacencyUses(gpuSteps(plan, bgp), store);
  const StreamingPlan streaming = planStreaming(uses, cache_.budget());
  const bool fromHomes = peersFor(streaming, store) != nullptr;
  uint64_t bytes = 0;
  for (const AdjacencyUse& use : uses) {
    if (fromHomes && streaming.streams(use.id.first, use.id.second)) continue;
    if (!cache_.holds(store, use.id.first, use.id.second)) bytes += use.bytes;
  }
  return bytes;
}

void Device::preload(const GraphStore& store) {
  cache_.beginQuery();
  uint64_t held = 0;
  try {
    for (const pcsr::Direction direction : {pcsr::Direction::Out, pcsr::Direction::In}) {
      const AdjacencyFile& adjacency = store.adjacency(direction);
      for (uint32_t p = 0; p < adjacency.predicateCount(); ++p) {
        const uint64_t bytes = wholeBytes(adjacency.predicate(p));
        if (held + bytes > cache_.budget()) continue;
        cache_.get(store, direction, p);
        held += bytes;
      }
    }
  } catch (const DeviceOutOfMemory&) {
    // What is copied stays; the rest is copied by the queries that read it.
  }
}

void Device::freeMemory() {
  pool_.synchronize();
  fused_.reset();
  cache_.clear();
}

}  // namespace gsparql::engine::gpu
