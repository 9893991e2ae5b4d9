#include "engine/gpu/gpu_executor.h"

#include <algorithm>
#include <string>
#include <type_traits>

#include "engine/gpu/gpu_device.cuh"
#include "engine/gpu/gpu_point_locator.cuh"
#include "engine/gpu/gpu_run.cuh"
#include "engine/gpu/gpu_steps.h"
#include "engine/gpu/gpu_walk_estimator.h"
#include "engine/gpu/peer_ranges.cuh"

namespace gsparql::engine {
namespace {

// Runs each call on its device, in a run of its own (gpu_run.cuh); what it
// cannot or should not run it declines (ExecutorDeclined) before any work,
// and what the device has no memory for, after freeing what it held: the
// placer (placement/fallback_executor.h) decides where that goes.
class GpuExecutor final : public Executor {
 public:
  explicit GpuExecutor(std::shared_ptr<gpu::Device> device)
      : device_(std::move(device)), walks_(makeGpuWalkEstimator(*device_)) {}

  std::string name() const override { return "gpu"; }
  WalkEstimator* walkEstimator() override { return walks_.get(); }
  std::shared_ptr<geo::PointLocator> pointLocator(const geo::RingSet& shapes) override {
    return gpu::makePointLocator(device_, shapes);
  }

  uint64_t bytesToCopy(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store) override {
    return device_->bytesToCopy(plan, bgp, store);
  }
  void preload(const GraphStore& store) override {
    device_->select();
    device_->preload(store);
  }

  // Cursors are execute()'s (Executor::open): a cursor's run lives within
  // its first next(), so it holds host rows alone and any thread may read it.
  IdColumns execute(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store, const BgpCall& options,
                    ExecutionProfile& profile) override {
    const std::vector<gpu::ComponentSteps> steps = gpu::gpuSteps(plan, bgp);
    declineUnsupported(steps, bgp);
    if (stopsFarBelowEstimate(plan, options)) {
      decline("its reader takes " + std::to_string(*options.rowLimit) +
              " row(s), which the CPU finds depth-first, while the GPU would find all of about " +
              std::to_string(static_cast<uint64_t>(plan.estimatedRows())));
    }
    return onDevice([&] { return gpu::BgpRun(*device_, bgp, store, steps).rows(plan, options, profile); });
  }

 protected:
  uint64_t countComponent(const BgpPlan& plan, uint32_t component, const BoundBgp& bgp, const GraphStore& store,
                          const BgpCall& options, ExecutionProfile& profile) override {
    const std::vector<gpu::ComponentSteps> steps{gpu::gpuSteps(plan.components[component], bgp)};
    declineUnsupported(steps, bgp);
    return onDevice(
        [&] { return gpu::BgpRun(*device_, bgp, store, steps).count(plan, component, options, profile); });
  }

  uint64_t countDistinctInComponent(const BgpPlan& plan, uint32_t component, const BoundBgp& bgp,
                                    const GraphStore& store, const BgpCall& options,
                                    ExecutionProfile& profile, uint32_t column) override {
    const std::vector<gpu::ComponentSteps> steps{gpu::gpuSteps(plan.components[component], bgp)};
    declineUnsupported(steps, bgp);
    return onDevice(
        [&] { return gpu::BgpRun(*device_, bgp, store, steps).countDistinct(component, options, profile, column); });
  }

  VertexCounts countByVertexInComponent(const BgpPlan& plan, uint32_t component, const BoundBgp& bgp,
                                        const GraphStore& store, const BgpCall& options, ExecutionProfile& profile,
                                        uint32_t column) override {
    const std::vector<gpu::ComponentSteps> steps{gpu::gpuSteps(plan.components[component], bgp)};
    declineUnsupported(steps, bgp);
    return onDevice(
        [&] { return gpu::BgpRun(*device_, bgp, store, steps).countByVertex(component, options, profile, column); });
  }

 private:
  [[noreturn]] static void decline(std::string why) {
    throw ExecutorDeclined(std::move(why), ExecutorDeclined::When::BeforeWork);
  }

  static void declineUnsupported(const std::vector<gpu::ComponentSteps>& steps, const BoundBgp& bgp) {
    if (std::string why = gpu::unsupportedReason(steps, bgp); !why.empty()) decline(std::move(why));
  }

  // A LIMIT or ASK that reads a small part of a large result: the GPU
  // finds every row level by level, the CPU executor stops early.
  static bool stopsFarBelowEstimate(const BgpPlan& plan, const BgpCall& options) {
    constexpr double kFactor = 1000, kLeastRows = 1e6;
    return options.rowLimit && plan.estimatedRows() > std::max(kLeastRows, kFactor * static_cast<double>(*options.rowLimit));
  }

  // `run` on the device (made the calling thread's current one: the threads
  // that call move between GPUs), or where the device runs out of memory (a graph or a query larger
  // than it), a decline once the run is gone and the device has freed what
  // it held: the next call starts afresh, and no query fails because the
  // device is too small.
  template <typename Run>
  std::invoke_result_t<Run&> onDevice(Run&& run) {
    device_->select();
    try {
      return run();
    } catch (const gpu::DeviceOutOfMemory& e) {
      device_->freeMemory();
      throw ExecutorDeclined(e.what(), ExecutorDeclined::When::OutOfMemory);
    }
  }

  std::shared_ptr<gpu::Device> device_;
  std::unique_ptr<WalkEstimator> walks_;  // on device_
};

}  // namespace

// Asked of the driver once per process: --backend auto asks before every
// query, and the answer cannot change while the process runs.
int gpuCount() {
  static const int count = [] {
    int devices = 0;
    return cudaGetDeviceCount(&devices) == cudaSuccess ? devices : 0;
  }();
  return count;
}

bool gpuAvailable() { return gpuCount() > 0; }

std::shared_ptr<gpu::Device> makeGpuDevice(const GpuOptions& options) {
  if (!gpuAvailable()) throw QueryError("no CUDA device is available; use --backend cpu");
  if (options.device < 0 || options.device >= gpuCount()) {
    throw QueryError("there is no GPU " + std::to_string(options.device) + ": this machine has " +
                     std::to_string(gpuCount()) + " (numbered from 0)");
  }
  return std::make_shared<gpu::Device>(options);
}

std::shared_ptr<gpu::PeerRanges> makePeerRanges(const std::vector<int>& gpus, std::optional<uint64_t> bytesPerGpu,
                                                const GpuOptions& readers) {
  if (gpus.size() < 2 || bytesPerGpu == 0 || !gpu::PeerRanges::peersCanRead(gpus)) return nullptr;
  uint64_t home = UINT64_MAX, cache = UINT64_MAX;
  for (const int device : gpus) {
    GpuOptions reader = readers;
    reader.device = device;
    const uint64_t limit = gpu::memoryLimit(reader);  // a share's
    home = std::min(home, bytesPerGpu.value_or(limit * std::max(1u, readers.memoryShares) / 4));
    cache = std::min(cache, readers.graphCacheBytes ? readers.graphCacheBytes : limit / 4);
  }
  return std::make_shared<gpu::PeerRanges>(gpus, home, cache / 4);
}

uint64_t peerBytesOnGpu(const gpu::PeerRanges& peers, int gpu) { return peers.bytesOnGpu(gpu); }

std::unique_ptr<Executor> makeGpuExecutor(std::shared_ptr<gpu::Device> device) {
  return std::make_unique<GpuExecutor>(std::move(device));
}

std::unique_ptr<Executor> makeGpuExecutor(const GpuOptions& options) { return makeGpuExecutor(makeGpuDevice(options)); }

}  // namespace gsparql::engine
