#include "engine/bgp/counted_leaves.h"

#include <algorithm>

namespace gsparql::engine {
namespace {

bool hasConstantPredicate(const EdgeUse& use, const BoundBgp& bgp) { return !bgp.edges[use.edge].predicateIsVariable; }

// Whether a step from `first` on reads a vertex that a step from `first` on binds.
bool readsOwn(const std::vector<PlanStep>& steps, size_t first) {
  const auto tail = steps.begin() + static_cast<std::ptrdiff_t>(first);
  return std::any_of(tail, steps.end(), [&](const PlanStep& reader) {
    return std::any_of(tail, steps.end(), [&](const PlanStep& binder) { return readsVertex(reader, binder.vertex); });
  });
}

}  // namespace

bool countableStep(const PlanStep& step, const BoundBgp& bgp) {
  if (step.source != CandidateSource::Neighbours || !hasConstantPredicate(step.driver, bgp)) return false;
  if (!step.predicateVertexChecks.empty()) return false;
  return std::all_of(step.checks.begin(), step.checks.end(), [&](const EdgeUse& check) {
    return hasConstantPredicate(check, bgp) && check.boundVertex != step.vertex;
  });
}

bool readsVertex(const PlanStep& step, uint32_t vertex) {
  if (step.source == CandidateSource::Neighbours && step.driver.boundVertex == vertex) return true;
  const auto reads = [&](const auto& checks, auto vertexOf) {
    return std::any_of(checks.begin(), checks.end(), [&](const auto& check) { return vertexOf(check) == vertex; });
  };
  return reads(step.checks, [](const EdgeUse& c) { return c.boundVertex; }) ||
         reads(step.predicateVertexChecks, [](const PredicateVertexCheck& c) { return c.vertex; });
}

size_t countedLeavesFrom(const ComponentPlan& plan, const BoundBgp& bgp) {
  const std::vector<PlanStep>& steps = plan.steps;
  size_t first = steps.size();
  while (first > 0 && countableStep(steps[first - 1], bgp) && !readsOwn(steps, first - 1)) --first;
  return first;
}

}  // namespace gsparql::engine
