#pragma once
// Wander Join (Li, Wu, Yi, Zhao: SIGMOD 2016; on GPUs, gSWORD): random walks
// along a plan's join steps estimate the rows after every step. A walk picks
// one candidate of each step uniformly at random and checks the step's other
// edges; the product of the candidate counts it met is an unbiased
// (Horvitz-Thompson) estimate of the rows a step makes, and a walk that
// survives step i counts for every prefix up to i (sample inheritance), so
// one batch of walks estimates all prefixes of a plan at once.
#include <cstdint>
#include <limits>
#include <vector>

#include "engine/bound_bgp.h"
#include "engine/plan.h"

namespace gsparql {
class GraphStore;
}

namespace gsparql::engine {

struct StepEstimate {
  double rows = 0;  // the mean over all walks of what they estimate
  // The estimate's standard error relative to it (a confidence): infinite
  // when no walk survived the step.
  double relativeError = std::numeric_limits<double>::infinity();
  uint64_t survivors = 0;  // walks that got through the step
};

struct WalkOptions {
  uint32_t walks = 1024;
  uint64_t seed = 1;  // the same seed, the same walks
};

// Estimates for the first steps of `plan` that walks can take: all of them,
// unless a step binds a predicate variable (a walk would have to choose among
// every predicate), where the estimates stop.
std::vector<StepEstimate> wanderJoin(const ComponentPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                                     const WalkOptions& options);

}  // namespace gsparql::engine
