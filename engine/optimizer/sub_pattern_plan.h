#pragma once
// A component's plan from estimates of all its connected sub-patterns,
// requested of an estimator in one batch (on the GPU, one launch). A
// sub-pattern's rows do not depend on the order that binds it, so each
// connected set of vertices is estimated once, along the plan the
// statistics make cheapest for it (cheapestPlans); a set whose plan is a
// prefix of another set's plan is estimated by that plan's walks (sample
// inheritance), so only the plans no other extends are sent. Dynamic
// programming over the sets by rows over the steps (C_out) then orders the
// component.
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/optimizer/prefix_estimate.h"
#include "engine/optimizer/walk_estimator.h"

namespace gsparql::engine {

// Components of more vertices have too many connected sets to send.
inline constexpr size_t kMaxSubPatternVertices = 8;

// The plan of `component` (its steps estimated by `sample`, as the planner's
// other candidates), or nullopt where it has more than
// kMaxSubPatternVertices vertices or no order binds it one adjacent vertex
// at a time.
std::optional<PartialPlan> planFromSubPatterns(const std::vector<uint32_t>& component, const StepBuilder& start,
                                               const std::optional<WalkSample>& sample, const BoundBgp& bgp,
                                               const GraphStore& store, WalkEstimator& estimator, uint64_t seed);

}  // namespace gsparql::engine
