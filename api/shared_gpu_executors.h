#pragma once
// The GPU executors that the databases a process has open share, one set per
// GPU setup. A snapshot opened while another is open (a server's after each
// update, or after another process wrote) uses the device objects the other
// made, with the adjacency they copied and the device memory they hold,
// rather than making its own and copying the whole graph again. Their caches
// key data by what holds it (AdjacencyFile::source, GraphStore::identity):
// snapshots read only their own data, and share what an update did not
// change. The set goes with the last database that uses it: one opened
// after that starts from an empty GPU.
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "engine/bgp/executor.h"
#include "gsparql/cost_model.h"

namespace gsparql {

// What makes two databases' GPU executors interchangeable.
struct GpuSetup {
  std::vector<uint32_t> gpus;  // CUDA ordinals, each present
  uint32_t executorsPerGpu = 1;
  uint64_t memoryBytes = 0;
  uint64_t cacheBytes = 0;  // for all the executors of a GPU
  std::optional<uint64_t> peerBytes;  // DatabaseOptions::gpuPeerBytes
  bool plainCsrLookups = false;
  bool twoPassJoin = false;
  bool naiveSetOperations = false;
  bool fuseLightSteps = true;
  ExecutorCosts costs;  // the GPU's: what prices a plan cut over several
  friend bool operator==(const GpuSetup&, const GpuSetup&) = default;
};

struct GpuExecutors {
  std::unique_ptr<engine::Executor> cpu;  // what the GPU declines runs here
  // Pooled per GPU (engine/placement/executor_pool.h), spread over several
  // (engine/placement/device_spread_executor.h), falling back on `cpu`
  // (engine/placement/fallback_executor.h).
  std::unique_ptr<engine::Executor> gpu;
};

// The set a database open now uses for `setup`, else a new one.
std::shared_ptr<GpuExecutors> sharedGpuExecutors(const GpuSetup& setup);

}  // namespace gsparql
