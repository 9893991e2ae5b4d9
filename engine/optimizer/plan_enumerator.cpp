#include "engine/optimizer/plan_enumerator.h"

#include <algorithm>
#include <stdexcept>

#include "engine/optimizer/cost_model.h"

namespace gsparql::engine {
namespace {

struct Candidate {
  PartialPlan plan;
  double cost = 0;
};

void keepCheaper(std::optional<Candidate>& best, Candidate candidate) {
  if (!best || candidate.cost < best->cost) best = std::move(candidate);
}

}  // namespace

std::vector<std::optional<PartialPlan>> cheapestPlans(const std::vector<uint32_t>& component,
                                                     const StepBuilder& start,
                                                     const std::optional<WalkSample>& sample,
                                                     const ExecutorCosts& costs, bool keepAll) {
  const size_t n = component.size();
  if (n == 0 || n > kMaxEnumeratedVertices) throw std::invalid_argument("cheapestPlan: component size out of range");
  // best[set]: the cheapest plan found that binds exactly the vertices of
  // `set` (bit i: component[i]). A step only ever adds a vertex, so every
  // set is complete before the larger sets made from it are visited.
  std::vector<std::optional<Candidate>> best(size_t{1} << n);
  for (size_t i = 0; i < n; ++i) {
    Candidate seed{{start, PrefixEstimate(sample), {}}, 0};
    seed.plan.add(seed.plan.builder.seedStep(component[i]));
    seed.cost = stepCost(costs, seed.plan.plan.steps.back());
    keepCheaper(best[size_t{1} << i], std::move(seed));
  }
  std::vector<std::optional<PartialPlan>> plans(best.size());
  for (size_t set = 1; set < best.size(); ++set) {
    if (!best[set]) continue;
    const StepBuilder& bound = best[set]->plan.builder;
    std::vector<bool> adjacent(n);
    for (size_t i = 0; i < n; ++i) adjacent[i] = !(set >> i & 1) && bound.cheapestDriver(component[i]).has_value();
    // Only where no vertex is adjacent (a predicate variable that also names
    // a vertex joins them, no edge does), a vertex starts anew.
    const bool joined = std::find(adjacent.begin(), adjacent.end(), true) != adjacent.end();
    for (size_t i = 0; i < n; ++i) {
      const size_t bit = size_t{1} << i;
      if ((set & bit) || (joined && !adjacent[i])) continue;
      Candidate next = *best[set];
      StepBuilder& builder = next.plan.builder;
      next.plan.add(adjacent[i] ? builder.extendStep(component[i]) : builder.seedStep(component[i]));
      next.cost += stepCost(costs, next.plan.plan.steps.back());
      keepCheaper(best[set | bit], std::move(next));
    }
    if (keepAll || set + 1 == best.size()) plans[set] = std::move(best[set]->plan);
    best[set].reset();  // no larger set is made from it any more
  }
  return plans;
}

PartialPlan cheapestPlan(const std::vector<uint32_t>& component, const StepBuilder& start,
                         const std::optional<WalkSample>& sample, const ExecutorCosts& costs) {
  return std::move(*cheapestPlans(component, start, sample, costs, false).back());
}

}  // namespace gsparql::engine
