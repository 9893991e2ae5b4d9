#include "engine/gpu/gpu_walk_estimator.h"

#include "engine/gpu/gpu_device.cuh"
#include "engine/gpu/gpu_steps.h"
#include "engine/gpu/gpu_wander_join.cuh"

namespace gsparql::engine {
namespace {

class GpuWalkEstimator final : public WalkEstimator {
 public:
  explicit GpuWalkEstimator(gpu::Device& device) : device_(device) {}

  std::string name() const override { return "gpu"; }
  uint32_t defaultWalks() const override { return 1u << 16; }

  // Between queries (the planner asks before the executor runs), so the
  // adjacency uploaded for the walks stays for the query's steps. Walks
  // read the adjacency whole: where the plans' would not fit the cache, the
  // GPU declines rather than push out the ranges queries stream; where the
  // device has no room for them, it frees what it holds and declines.
  std::vector<std::vector<StepEstimate>> walkBatch(std::span<const ComponentPlan> plans, const BoundBgp& bgp,
                                                   const GraphStore& store, const WalkOptions& options) override {
    device_.select();
    std::vector<gpu::ComponentSteps> steps;
    for (const ComponentPlan& plan : plans) steps.push_back(gpu::gpuSteps(plan, bgp));
    if (!gpu::planStreaming(gpu::adjacencyUses(steps, store), device_.cache().budget()).streamed.empty()) {
      throw ExecutorDeclined("the adjacency the plans walk would not fit the GPU's cache",
                             ExecutorDeclined::When::BeforeWork);
    }
    try {
      return gpu::wanderJoin(device_.pool(), device_.cache(), plans, bgp, store, options);
    } catch (const gpu::DeviceOutOfMemory& e) {
      device_.freeMemory();
      throw ExecutorDeclined(e.what(), ExecutorDeclined::When::OutOfMemory);
    }
  }

 private:
  gpu::Device& device_;
};

}  // namespace

std::unique_ptr<WalkEstimator> makeGpuWalkEstimator(gpu::Device& device) {
  return std::make_unique<GpuWalkEstimator>(device);
}

}  // namespace gsparql::engine
