#pragma once
// The optimizer's one entry point: the join orderer that plans a query's
// BGPs, made from the search the user chose and the executors that may run
// them, under the optimizer's own policy (how many walks, their seed; when
// to search is each orderer's own rule, priced by the cost model).
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "engine/optimizer/join_orderer.h"
#include "engine/optimizer/plan_cache.h"
#include "engine/optimizer/walk_estimator.h"
#include "gsparql/cost_model.h"
#include "gsparql/query.h"

namespace gsparql {
class GraphStore;
}

namespace gsparql::engine {

struct OptimizerSetup {
  Optimizer search = Optimizer::Walks;  // what each choice does: gsparql/query.h
  // The calibrated constants of the executors that may run the BGPs (at
  // least one for Walks and Thorough); Thorough prices plans by the last,
  // the GPU's where the GPU may run them.
  std::vector<ExecutorCosts> executors;
  // Thorough: whose many walks estimate costly plans again (the executor's
  // own, the GPU's gSWORD), or none. It outlives the orderer.
  WalkEstimator* refiner = nullptr;
  // The CPU executor's constants, which price the joins between operators
  // (JoinOrderer::operatorCosts); none: unit costs.
  std::optional<ExecutorCosts> operatorCosts;
  // The snapshot's kept plans (plan_cache.h), or none: every BGP planned.
  BgpPlanCache* plans = nullptr;
};

// Walks per BGP component while planning (enough to tell orders apart, few
// enough that planning stays a small part of a millisecond query), and their
// seed: the same query and data, the same plan.
inline constexpr uint32_t kPlanningWalks = 128;
inline constexpr uint64_t kPlanningSeed = 1;

std::unique_ptr<JoinOrderer> makeOptimizer(const GraphStore& store, const OptimizerSetup& setup);

}  // namespace gsparql::engine
