#pragma once
// Chooses the order in which query vertices are bound, and estimates the
// rows after each step.
#include <memory>
#include <vector>

#include "engine/bgp/bound_bgp.h"
#include "engine/bgp/plan.h"
#include "engine/optimizer/walk_estimator.h"
#include "engine/optimizer/wander_join.h"
#include "gsparql/cost_model.h"
#include "storage/catalog.h"

namespace gsparql::engine {

// What a BGP's rows are for: handed up, or only counted (COUNT(*)), where
// the plan's last steps that bind leaves are multiplied, never made
// (bgp/counted_leaves.h), so the cheapest order may
// take the leaves last even where another makes fewer rows.
enum class PlanUse { Rows, Count };

class JoinOrderer {
 public:
  virtual ~JoinOrderer() = default;
  BgpPlan plan(const BoundBgp& bgp, const Catalog& catalog, PlanUse use = PlanUse::Rows) const {
    return planFor(bgp, catalog, use);
  }
  // What joins between operators are priced by (operator_join_order.h):
  // the CPU executor's constants, which run every operator; unit costs
  // where the optimizer has no cost model (the statistics).
  const ExecutorCosts& operatorCosts() const { return operatorCosts_; }
  void setOperatorCosts(const ExecutorCosts& costs) { operatorCosts_ = costs; }

 private:
  virtual BgpPlan planFor(const BoundBgp& bgp, const Catalog& catalog, PlanUse use) const = 0;

  ExecutorCosts operatorCosts_{.perCandidate = 1, .perRow = 1};
};

// SGSI's heuristic: start from the vertex with the fewest candidates per
// incident edge, then repeatedly add the neighbour reached through the rarest
// predicate (constants first), so intermediate tables stay small.
std::unique_ptr<JoinOrderer> makeStatisticsOrderer();

// The same seed, then each next vertex chosen by random walks (Wander Join,
// engine/optimizer/wander_join.h): the one whose step the walks estimate to
// make the fewest rows; the steps' estimates are the walks' wherever walks
// survived, the statistics' elsewhere. For a count, also the plan that
// binds the leaves last, kept where counting by it costs clearly less.
// Where the greedy plan is costly on the fastest of `executors` (the
// calibrated constants of those that may run the BGPs; at least one), also
// dynamic programming over the component's connected sets of vertices.
std::unique_ptr<JoinOrderer> makeSamplingOrderer(const GraphStore& store, const WalkOptions& walks,
                                                 std::vector<ExecutorCosts> executors);

// The sampling orderer's plan, and where it is costly (by `costs`, the
// executor's constants) the cheapest plan of dynamic programming over the
// component's connected sets of vertices (optimizer/plan_enumerator.h);
// where the cheaper is costlier still, `refiner` (if any; it outlives the
// orderer) takes the estimates of both again with its many walks, in one
// batch, and the plan cheaper by them is kept.
std::unique_ptr<JoinOrderer> makeCostOrderer(const GraphStore& store, const WalkOptions& walks,
                                             const ExecutorCosts& costs, WalkEstimator* refiner = nullptr);

}  // namespace gsparql::engine
