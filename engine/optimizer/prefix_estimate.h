#pragma once
// The rows after a prefix of a component's plan, step by step: estimated by
// random walks while some survive (Wander Join, wander_join.h), by the
// per-predicate statistics once none can go on. Copies are cheap enough to
// try a step on one and keep the copy that fared best.
#include <cstdint>
#include <optional>

#include "engine/bgp/plan.h"
#include "engine/optimizer/step_builder.h"
#include "engine/optimizer/wander_join.h"

namespace gsparql::engine {

class PrefixEstimate {
 public:
  explicit PrefixEstimate(std::optional<WalkSample> sample) : sample_(std::move(sample)) {}

  // Takes `step`, which `builder` built, and writes its estimates (rows,
  // candidates, their source and error) into it.
  void take(PlanStep& step, const StepBuilder& builder);

  double rows() const { return rows_; }
  // Walks still go on: the next step's estimate will be theirs.
  bool sampled() const { return sample_.has_value(); }

 private:
  std::optional<WalkSample> sample_;
  double rows_ = 1;
  uint64_t survivors_ = 0;  // of the walks, after the last sampled step
};

// A component's plan being built: the steps so far, what they bound, and their estimates.
struct PartialPlan {
  StepBuilder builder;
  PrefixEstimate estimate;
  ComponentPlan plan;

  void add(PlanStep step) {
    estimate.take(step, builder);
    plan.steps.push_back(std::move(step));
  }
};

}  // namespace gsparql::engine
