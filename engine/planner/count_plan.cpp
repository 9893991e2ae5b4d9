#include "engine/planner/count_plan.h"

#include "engine/bgp/counted_leaves.h"

namespace gsparql::engine {
namespace {

// The steps' own factors (rows after / rows before), multiplied again in the new order.
void reestimate(const std::vector<PlanStep>& before, std::vector<size_t> order, std::vector<PlanStep>& after) {
  double rows = 1;
  for (size_t i = 0; i < order.size(); ++i) {
    const size_t k = order[i];
    const double previous = k == 0 ? 1 : before[k - 1].estimatedRows;
    rows *= previous > 0 ? before[k].estimatedRows / previous : 0;
    after[i].estimatedRows = rows;
  }
}

BgpPlan leavesLast(BgpPlan plan, const BoundBgp& bgp) {
  for (ComponentPlan& component : plan.components) {
    const std::vector<PlanStep>& steps = component.steps;
    std::vector<size_t> kept, moved;
    for (size_t k = 0; k < steps.size(); ++k) {
      bool read = false;
      for (size_t later = k + 1; later < steps.size() && !read; ++later) read = readsVertex(steps[later], steps[k].vertex);
      (countableStep(steps[k], bgp) && !read ? moved : kept).push_back(k);
    }
    kept.insert(kept.end(), moved.begin(), moved.end());
    std::vector<PlanStep> reordered;
    for (size_t k : kept) reordered.push_back(steps[k]);
    reestimate(steps, kept, reordered);
    component.steps = std::move(reordered);
  }
  return plan;
}

}  // namespace

BgpPlan planForCount(BgpPlan plan, const BoundBgp& bgp) {
  plan = leavesLast(std::move(plan), bgp);
  for (ComponentPlan& component : plan.components) component.countedLeavesFrom = countedLeavesFrom(component, bgp);
  return plan;
}

}  // namespace gsparql::engine
