#include "api/shared_gpu_executors.h"

#include <algorithm>
#include <mutex>
#include <string>
#include <utility>

#include "engine/cpu/cpu_executor.h"
#include "engine/gpu/gpu_executor.h"
#include "engine/placement/device_spread_executor.h"
#include "engine/placement/executor_pool.h"
#include "engine/placement/fallback_executor.h"

namespace gsparql {
namespace {

// One device object per share of the GPU, each bound to an executor of the pool.
// The options of each device object of one GPU's pool: one per share of it.
engine::GpuOptions deviceOptions(const GpuSetup& setup, uint32_t device) {
  const uint32_t count = std::max(1u, setup.executorsPerGpu);
  engine::GpuOptions options;
  options.device = static_cast<int>(device);
  options.memoryBytes = setup.memoryBytes;
  options.memoryShares = count;
  // The executors' caches share it too (0 stays 0: a quarter of each one's memory).
  options.graphCacheBytes = setup.cacheBytes == 0 ? 0 : std::max<uint64_t>(1, setup.cacheBytes / count);
  options.plainCsrLookups = setup.plainCsrLookups;
  options.twoPassJoin = setup.twoPassJoin;
  options.naiveSetOperations = setup.naiveSetOperations;
  options.fuseLightSteps = setup.fuseLightSteps;
  return options;
}

std::unique_ptr<engine::Executor> gpuPool(engine::GpuOptions options) {
  std::vector<std::unique_ptr<engine::Executor>> executors;
  for (uint32_t i = 0; i < options.memoryShares; ++i) {
    executors.push_back(engine::makeGpuExecutor(engine::makeGpuDevice(options)));
  }
  return engine::makeExecutorPool(std::move(executors));
}

std::shared_ptr<GpuExecutors> makeGpuExecutors(const GpuSetup& setup) {
  auto made = std::make_shared<GpuExecutors>();
  made->cpu = engine::makeCpuExecutor();
  const std::shared_ptr<engine::gpu::PeerRanges> peers =
      engine::makePeerRanges(std::vector<int>(setup.gpus.begin(), setup.gpus.end()), setup.peerBytes,
                             deviceOptions(setup, setup.gpus.front()));
  std::vector<engine::SpreadDevice> pools;
  for (uint32_t device : setup.gpus) {
    engine::GpuOptions options = deviceOptions(setup, device);
    options.peers = peers;
    pools.push_back({"GPU " + std::to_string(device), gpuPool(std::move(options))});
  }
  std::unique_ptr<engine::Executor> all = pools.size() == 1
                                              ? std::move(pools.front().executor)
                                              : engine::makeDeviceSpreadExecutor(std::move(pools), {setup.costs});
  made->gpu = engine::makeFallbackExecutor(std::move(all), *made->cpu);
  return made;
}

}  // namespace

std::shared_ptr<GpuExecutors> sharedGpuExecutors(const GpuSetup& setup) {
  // Never destroyed: a database may close while the process exits.
  static std::mutex& mutex = *new std::mutex;
  static auto& sets = *new std::vector<std::pair<GpuSetup, std::weak_ptr<GpuExecutors>>>;
  std::lock_guard lock(mutex);
  std::erase_if(sets, [](const auto& set) { return set.second.expired(); });
  for (const auto& [made, executors] : sets) {
    if (made != setup) continue;
    if (auto shared = executors.lock()) return shared;
  }
  auto executors = makeGpuExecutors(setup);
  sets.emplace_back(setup, executors);
  return executors;
}

}  // namespace gsparql
