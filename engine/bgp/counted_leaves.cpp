#include "engine/bgp/counted_leaves.h"

#include <algorithm>

namespace gsparql::engine {
namespace {

bool hasConstantPredicate(const EdgeUse& use, const BoundBgp& bgp) { return !bgp.edges[use.edge].predicateIsVariable; }

// A step whose rows of a given row are its candidates that pass the checks,
// found by intersecting lists alone.
bool leafLike(const PlanStep& step, const BoundBgp& bgp) {
  if (step.source != CandidateSource::Neighbours || !hasConstantPredicate(step.driver, bgp)) return false;
  if (!step.predicateVertexChecks.empty()) return false;
  return std::all_of(step.checks.begin(), step.checks.end(), [&](const EdgeUse& check) {
    return hasConstantPredicate(check, bgp) && check.boundVertex != step.vertex;
  });
}

// Whether a step from `first` on reads a vertex that a step from `first` on binds.
bool readsOwn(const std::vector<PlanStep>& steps, size_t first) {
  const auto tail = steps.begin() + static_cast<std::ptrdiff_t>(first);
  const auto boundInTail = [&](uint32_t v) {
    return std::any_of(tail, steps.end(), [&](const PlanStep& s) { return s.vertex == v; });
  };
  return std::any_of(tail, steps.end(), [&](const PlanStep& s) {
    return boundInTail(s.driver.boundVertex) ||
           std::any_of(s.checks.begin(), s.checks.end(), [&](const EdgeUse& c) { return boundInTail(c.boundVertex); });
  });
}

}  // namespace

size_t countedLeavesFrom(const ComponentPlan& plan, const BoundBgp& bgp) {
  const std::vector<PlanStep>& steps = plan.steps;
  size_t first = steps.size();
  while (first > 0 && leafLike(steps[first - 1], bgp) && !readsOwn(steps, first - 1)) --first;
  return first;
}

}  // namespace gsparql::engine
