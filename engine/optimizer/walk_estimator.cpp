#include "engine/optimizer/walk_estimator.h"

namespace gsparql::engine {
namespace {

class CpuWalkEstimator final : public WalkEstimator {
 public:
  std::string name() const override { return "cpu"; }
  uint32_t defaultWalks() const override { return 4096; }
  std::vector<StepEstimate> estimate(const ComponentPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                                     const WalkOptions& options) override {
    return wanderJoin(plan, bgp, store, options);
  }
};

}  // namespace

std::unique_ptr<WalkEstimator> makeCpuWalkEstimator() { return std::make_unique<CpuWalkEstimator>(); }

}  // namespace gsparql::engine
