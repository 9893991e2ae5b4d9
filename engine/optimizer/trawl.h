#pragma once
// Trawling against underestimation (gSWORD's CPU-GPU co-processing): where
// few of the walks survive a step, the rows after it hide in a few prefixes
// that a walk, taking one candidate a step, rarely completes. There the CPU
// trawls: from each of a few prefixes it follows not one candidate but all
// of a row's candidates (up to `perRow`, else that many drawn at random),
// and keeps every surviving row (up to `frontier`, else that many drawn at
// random), so a rare join is found wherever a prefix reaches it. Each row
// carries the inverse of the probability that it was kept (Horvitz-Thompson),
// so the sum of a prefix's weights after a step is an unbiased estimate of
// the rows after it, as a walk's weight is; with perRow = frontier = 1 it is
// a walk, with both unbounded the exact count.
#include <cstdint>
#include <vector>

#include "engine/bgp/bound_bgp.h"
#include "engine/bgp/plan.h"
#include "engine/optimizer/wander_join.h"

namespace gsparql {
class GraphStore;
}

namespace gsparql::engine {

struct TrawlOptions {
  uint32_t prefixes = 128;
  uint32_t frontier = 16;  // rows a prefix keeps after a step
  uint32_t perRow = 8;     // candidates a row follows at a step
  uint64_t seed = 1;
  // Walks' estimates that fewer walks got through are trawled again.
  uint64_t fewSurvivors = 64;
};

// Estimates for the first steps of `plan` that walks can take.
std::vector<StepEstimate> trawl(const ComponentPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                                const TrawlOptions& options);

// Walks' estimates of a plan's steps, those from the first step that fewer
// than options.fewSurvivors walks got through on replaced by trawling's
// where its standard error is the smaller (the walks': infinite where none
// survived): what WalkEstimator::estimateBatch hands out.
void trawlWhereFewSurvive(const ComponentPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                          const TrawlOptions& options, std::vector<StepEstimate>& walks);

}  // namespace gsparql::engine
