#include "engine/optimizer/prefix_estimate.h"

namespace gsparql::engine {

void PrefixEstimate::take(PlanStep& step, const StepBuilder& builder) {
  if (sample_ && WalkSample::canTake(step)) {
    sample_->extend(step);
    const StepEstimate sampled = sample_->estimate();
    // Where no walk survives, the characteristic sets are a second guess
    // (a predicate's averages, independence, are none); asked only then:
    // they cost more than the walks.
    std::optional<double> byStar;
    if (sampled.survivors == 0 && builder.starKnows(step)) {
      byStar = rows_ * builder.candidateFactor(step) * builder.checkFactor(step);
    }
    step.estimatedRows = rowsAfter(sampled, rows_, survivors_, byStar);
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
