#include "engine/optimizer/walk_estimator.h"

namespace gsparql::engine {
namespace {

class CpuWalkEstimator final : public WalkEstimator {
 public:
  std::string name() const override { return "cpu"; }
  uint32_t defaultWalks() const override { return 4096; }
  std::vector<std::vector<StepEstimate>> estimateBatch(std::span<const ComponentPlan> plans, const BoundBgp& bgp,
                                                       const GraphStore& store, const WalkOptions& options) override {
    std::vector<std::vector<StepEstimate>> estimates;
    for (const ComponentPlan& plan : plans) estimates.push_back(wanderJoin(plan, bgp, store, options));
    return estimates;
  }
};

}  // namespace

std::unique_ptr<WalkEstimator> makeCpuWalkEstimator() { return std::make_unique<CpuWalkEstimator>(); }

}  // namespace gsparql::engine
