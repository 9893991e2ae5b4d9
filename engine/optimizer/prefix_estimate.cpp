#include "engine/optimizer/prefix_estimate.h"

namespace gsparql::engine {

void PrefixEstimate::take(PlanStep& step, const StepBuilder& builder) {
  if (sample_ && WalkSample::canTake(step)) {
    sample_->extend(step);
    const StepEstimate sampled = sample_->estimate();
    step.estimatedRows = rowsAfter(sampled, rows_, survivors_);
    step.estimatedCandidates = sampled.candidates;
    step.estimateSource = sampled.exact            ? EstimateSource::Exact
                          : sampled.survivors > 0 ? EstimateSource::Walks
                                                  : EstimateSource::NoSurvivor;
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
