#pragma once
// What a plan costs on an executor: each step's candidates and rows priced by
// the executor's constants (gsparql/cost_model.h), plus a fixed cost per step
// and per BGP. The estimates come from the plan (wander_join.h); the constants
// are fitted to measured times by fitCosts.
#include <cstddef>
#include <vector>

#include "engine/bgp/plan.h"
#include "gsparql/cost_model.h"

namespace gsparql::engine {

double stepCost(const ExecutorCosts& costs, const PlanStep& step);
// Every step of the component.
double componentCost(const ExecutorCosts& costs, const ComponentPlan& plan);
// The BGP's fixed cost and every step of every component.
double planCost(const ExecutorCosts& costs, const BgpPlan& plan);

// What counting a component's rows costs when its steps from `leavesFrom`
// on are counted as products (bgp/counted_leaves.h): componentCost, but each
// counted leaf costs its step and a lookup per row before the leaves (or,
// where it checks edges, the candidates it intersects), and makes no rows.
double componentCountCost(const ExecutorCosts& costs, const ComponentPlan& plan, size_t leavesFrom);
// The BGP's fixed cost and the count of every component, with the leaves
// its plan marks (ComponentPlan::countedLeavesFrom).
double countCost(const ExecutorCosts& costs, const BgpPlan& plan);

// The work the cost model prices, summed over what ran.
struct PlanWork {
  double bgps = 0, steps = 0, candidates = 0, rows = 0;
  void add(const BgpPlan& plan);
  // What `costs` predict the work takes, in microseconds.
  double cost(const ExecutorCosts& costs) const {
    return costs.perBgp * bgps + costs.perStep * steps + costs.perCandidate * candidates + costs.perRow * rows;
  }
};

struct CostSample {
  PlanWork work;
  double microseconds = 0;  // measured
};

// The non-negative constants whose predictions are off by the least squared
// relative error over the samples (each time counts by its ratio, so small
// queries weigh as much as large ones). Needs samples; the result prices a
// sample's work as sum(work * constant).
ExecutorCosts fitCosts(const std::vector<CostSample>& samples);

}  // namespace gsparql::engine
