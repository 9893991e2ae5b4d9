#include "engine/optimizer/walk_estimator.h"

#include "engine/optimizer/trawl.h"

namespace gsparql::engine {
namespace {

class CpuWalkEstimator final : public WalkEstimator {
 public:
  std::string name() const override { return "cpu"; }
  uint32_t defaultWalks() const override { return 4096; }
  std::vector<std::vector<StepEstimate>> walkBatch(std::span<const ComponentPlan> plans, const BoundBgp& bgp,
                                                   const GraphStore& store, const WalkOptions& options) override {
    std::vector<std::vector<StepEstimate>> estimates;
    for (const ComponentPlan& plan : plans) estimates.push_back(wanderJoin(plan, bgp, store, options));
    return estimates;
  }
};

}  // namespace

std::vector<std::vector<StepEstimate>> WalkEstimator::estimateBatch(std::span<const ComponentPlan> plans,
                                                                    const BoundBgp& bgp, const GraphStore& store,
                                                                    const WalkOptions& options) {
  std::vector<std::vector<StepEstimate>> estimates = walkBatch(plans, bgp, store, options);
  if (!options.trawl) return estimates;
  for (size_t p = 0; p < plans.size(); ++p) {
    trawlWhereFewSurvive(plans[p], bgp, store, {.seed = options.seed}, estimates[p]);
  }
  return estimates;
}

std::unique_ptr<WalkEstimator> makeCpuWalkEstimator() { return std::make_unique<CpuWalkEstimator>(); }

}  // namespace gsparql::engine
