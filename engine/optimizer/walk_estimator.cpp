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

void WalkEstimator::refine(std::span<ComponentPlan* const> plans, const BoundBgp& bgp, const GraphStore& store,
                           uint64_t seed) {
  const uint32_t walks = defaultWalks();
  std::vector<ComponentPlan> copies;
  for (const ComponentPlan* plan : plans) copies.push_back(*plan);
  const auto estimates = estimateBatch(copies, bgp, store, {.walks = walks, .seed = seed});
  const std::string by = std::to_string(walks) + " walks on the " + name();
  for (size_t c = 0; c < plans.size(); ++c) {
    double rowsBefore = 1;
    uint64_t survivorsBefore = walks;
    for (size_t i = 0; i < estimates[c].size(); ++i) {
      PlanStep& step = plans[c]->steps[i];
      const StepEstimate& e = estimates[c][i];
      step.estimatedRows = rowsAfter(e, rowsBefore, survivorsBefore);
      step.estimatedCandidates = e.candidates;
      step.estimateSource = e.survivors > 0 ? EstimateSource::Walks : EstimateSource::NoSurvivor;
      step.estimateError = e.relativeError;
      step.estimateBy = by;
      if (e.survivors == 0) break;
      rowsBefore = step.estimatedRows;
      survivorsBefore = e.survivors;
    }
  }
}

std::unique_ptr<WalkEstimator> makeCpuWalkEstimator() { return std::make_unique<CpuWalkEstimator>(); }

}  // namespace gsparql::engine
