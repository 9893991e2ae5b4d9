#pragma once
// Random-walk estimates of every prefix of a component's plan (Wander Join,
// wander_join.h), by whichever processor holds the graph: the CPU walks a
// few thousand walks one after another; the GPU (gSWORD) thousands at once,
// each lane streaming walks, so it affords many more walks where a plan is costly
// enough for the estimates to matter.
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "engine/bgp/bound_bgp.h"
#include "engine/bgp/plan.h"
#include "engine/optimizer/wander_join.h"

namespace gsparql {
class GraphStore;
}

namespace gsparql::engine {

class WalkEstimator {
 public:
  virtual ~WalkEstimator() = default;
  virtual std::string name() const = 0;
  // The walks an estimate takes by default: what the processor does in
  // about a millisecond.
  virtual uint32_t defaultWalks() const = 0;
  // One estimate per step, for the steps walks can take from the first
  // (they stop at a step that binds a predicate variable).
  std::vector<StepEstimate> estimate(const ComponentPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                                     const WalkOptions& options) {
    return estimateBatch({&plan, 1}, bgp, store, options)[0];
  }
  // The same for several plans of one BGP (the planner's candidates) in one
  // request, each with options.walks walks of its own and the same random
  // numbers as alone: the GPU walks them all in one launch. Where few walks
  // got through a step, the CPU trawls that plan (trawl.h) while
  // options.trawl: gSWORD's CPU-GPU co-processing on the GPU's estimator.
  std::vector<std::vector<StepEstimate>> estimateBatch(std::span<const ComponentPlan> plans, const BoundBgp& bgp,
                                                       const GraphStore& store, const WalkOptions& options);
  // Takes the estimates of `plans` again with defaultWalks() walks each,
  // in one batch (estimateBatch; `seed` as the planner's): each step the
  // walks reach gets theirs, its estimateBy naming them; the steps after the
  // last they reach keep the estimates they had.
  void refine(std::span<ComponentPlan* const> plans, const BoundBgp& bgp, const GraphStore& store, uint64_t seed);
  // The walks alone (Wander Join as published, which the tests compare CPU
  // with GPU).
  virtual std::vector<std::vector<StepEstimate>> walkBatch(std::span<const ComponentPlan> plans, const BoundBgp& bgp,
                                                           const GraphStore& store, const WalkOptions& options) = 0;
};

std::unique_ptr<WalkEstimator> makeCpuWalkEstimator();

}  // namespace gsparql::engine
