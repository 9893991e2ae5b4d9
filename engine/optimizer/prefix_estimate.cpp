#include "engine/optimizer/prefix_estimate.h"

namespace gsparql::engine {

void PrefixEstimate::take(PlanStep& step, const StepBuilder& builder) {
  if (sample_ && WalkSample::canTake(step)) {
    sample_->extend(step);
    const StepEstimate sampled = sample_->estimate();
    // Where no walk survived a step that some entered, the step passes fewer
    // than one of them: half a walk's share of the rows before it (the
    // statistics know nothing better about such a step).
    const bool died = sampled.survivors == 0 && survivors_ > 0;
    step.estimatedRows = died ? rows_ * 0.5 / static_cast<double>(survivors_) : sampled.rows;
    step.estimatedCandidates = sampled.candidates;
    step.estimateSource = sampled.survivors > 0 ? EstimateSource::Walks : EstimateSource::NoSurvivor;
    step.estimateError = sampled.relativeError;
    survivors_ = sampled.survivors;
    if (survivors_ == 0) sample_.reset();
  } else {
    sample_.reset();
    survivors_ = 0;
    step.estimatedCandidates = rows_ * builder.candidateFactor(step);
    step.estimatedRows = step.estimatedCandidates * builder.checkFactor(step);
  }
  rows_ = step.estimatedRows;
}

}  // namespace gsparql::engine
