#pragma once
// Wander Join (Li, Wu, Yi, Zhao: SIGMOD 2016; on GPUs, gSWORD): random walks
// along a plan's join steps estimate the rows after every step. A walk picks
// one candidate of each step uniformly at random and checks the step's other
// edges; the product of the candidate counts it met is an unbiased
// (Horvitz-Thompson) estimate of the rows the steps make. Walks are kept as a
// sample that grows one step at a time, so a walk that survives step i counts
// for every prefix up to i (sample inheritance): one sample estimates all
// prefixes of a plan, and the planner extends one sample by each step it
// considers next instead of walking from the start again.
//
// The planner's sample (WalkMode::Planner) is exact while the prefix is
// small: as long as a step's candidates number at most the walks, it holds
// every row of the prefix instead of walks, which costs no more than walking
// and makes the estimate of a light query's steps their true rows. At the
// first step with more candidates, the walks start from those rows, each
// from one taken uniformly at random (weighted by their number, so the
// estimate stays unbiased). (Resampling the few survivors of a rare step, as
// particle filters do, was tried and made the tail of the q-errors worse:
// benchmarks/results/estimate-quality-dev-2core-planner-sample.)
//
// Where that first larger step (for the estimators' walks: the first step)
// is a seed drawn from a predicate's keys, the sample waits for the next step
// before walking: its rows are the keys, known. Where the next step goes
// from the seed along the same predicate and direction, the two steps bind
// one triple pattern, and the walks draw its edges uniformly (each weighted
// by their number), as Wander Join samples a first table's tuples: every key
// is drawn in proportion to its degree there, the step's rows before its
// checks are the edges, exactly, and a later step along the same adjacency
// (?b likes ?p . ?c likes ?p) is estimated by importance sampling instead of
// from keys drawn uniformly, which miss the few keys with most of the edges
// (WatDiv's products liked by thousands: 28 times too low with 128 uniform
// walks). The planner's sample alone goes on: where the next step
// binds a constant that an edge joins to the seed, and the constant has
// fewer neighbours over that edge than the seed has keys, the rows are those
// neighbours that are keys: counted where they number at most the walks,
// else walked from the constant's side, so that a seed of 40,000 users
// checked against a constant's 43 friends is not 128 walks of which none
// survives. Otherwise the seed is walked uniformly.
//
// Alley (Kim, Kim, Fletcher, Han: SIGMOD 2021), asked for by
// WalkOptions::alley, differs at a step with checks: the walk draws among
// the candidates that pass them all and multiplies its weight by their
// number, so it dies only where none passes (rare joins get more survivors
// for the same walks, each walk doing more work). Alley's branching is
// trawling's (trawl.h).
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "engine/bgp/bound_bgp.h"
#include "engine/bgp/plan.h"
#include "engine/optimizer/split_mix.h"
#include "engine/optimizer/step_matcher.h"

namespace gsparql {
class GraphStore;
}

namespace gsparql::engine {

struct StepEstimate {
  double rows = 0;  // the mean over all walks of what they estimate
  // The candidates the step's source gives all rows before it, before its
  // checks: the work of its set operations.
  double candidates = 0;
  // The estimate's standard error relative to it (a confidence): infinite
  // when no walk survived the step.
  double relativeError = std::numeric_limits<double>::infinity();
  // Walks that got through the step; exact: the rows, or the walks where
  // they are fewer (a seed whose keys outnumber them, walked from the next step).
  uint64_t survivors = 0;
  bool exact = false;      // the rows counted, not estimated
};

struct WalkOptions {
  uint32_t walks = 1024;
  uint64_t seed = 1;  // the same seed, the same walks
  bool trawl = true;  // WalkEstimator::estimateBatch: trawl where few walks survive
  // Alley (Kim et al., SIGMOD 2021) instead of Wander Join: at a step with
  // checks, a walk draws among the candidates that pass them all (their
  // intersection) and multiplies its weight by their number, so it dies
  // only where none passes. A step of more than kAlleyScanLimit candidates
  // is walked as Wander Join's (each step's factor is unbiased either way).
  bool alley = false;
};

inline constexpr uint64_t kAlleyScanLimit = 4096;

// Wander Join as published (the estimators', which the tests compare CPU
// with GPU), or the planner's sample (above).
enum class WalkMode : uint8_t { Plain, Planner };

class WalkSample {
 public:
  WalkSample(const BoundBgp& bgp, const GraphStore& store, const WalkOptions& options,
             WalkMode mode = WalkMode::Plain);

  // Walks can take a step unless it binds a predicate variable (a walk would
  // have to choose among every predicate).
  static bool canTake(const PlanStep& step);
  // Whether walks draw the edges of one adjacency for a plan's first two
  // steps together (above): `seed` drawn from a predicate's keys, unchecked,
  // `next` from its neighbours along the same predicate and direction.
  static bool drawSeedEdges(const PlanStep& seed, const PlanStep& next, const BoundBgp& bgp);
  // Extends every live walk through `step`, which must follow the steps taken.
  void extend(const PlanStep& step);
  // The rows after the steps taken so far.
  StepEstimate estimate() const;

 private:
  // Binds the step's vertex of one walk to one of `candidates`: Wander
  // Join's, drawn and then checked, or Alley's, drawn among those that pass
  // the checks; returns the factor of the walk's weight (0: it dies).
  double chooseAndCheck(const PlanStep& step, const StepMatcher::Candidates& candidates, uint32_t* row);
  double chooseSurvivor(const PlanStep& step, const StepMatcher::Candidates& candidates, uint32_t* row);
  // Whether Alley draws among the survivors at `step`: it has checks, and
  // few enough candidates to check them all.
  static bool intersects(const PlanStep& step, const StepMatcher::Candidates& candidates);
  // Exact: every row after `step`, unless its candidates outnumber the
  // walks (then false, and nothing changed).
  bool extendExactly(const PlanStep& step);
  // Leaves exactness: each walk starts from one of the rows held.
  void spreadWalks();
  // Whether the sample may wait with `step`, its first, for the next (above).
  static bool canDefer(const PlanStep& step, const BoundBgp& bgp);
  // The deferred seed and `step` together, from edges drawn uniformly.
  void walkSeedEdges(const PlanStep& step);
  // The check of `step` that joins its constant to the deferred seed, if any.
  const EdgeUse* constantCheckOnSeed(const PlanStep& step) const;
  // The deferred seed and `step` together, from the constant's side of
  // `check`, where that side has fewer vertices than the seed's keys (else
  // false, and nothing changed).
  bool walkFromConstant(const PlanStep& step, const EdgeUse& check);
  // The deferred seed, walked uniformly over its keys.
  void walkSeed();

  const BoundBgp* bgp_;
  const GraphStore* store_;
  StepMatcher matcher_;
  size_t width_;
  size_t walks_;
  bool planner_;
  bool alley_;
  bool exact_;
  std::vector<uint32_t> rows_;   // walks (exact: rows) x bgp columns
  std::vector<double> weights_;  // per walk (exact: per row, 1); 0 once dead
  double candidates_ = 0;        // StepEstimate::candidates of the last step taken
  size_t stepsTaken_ = 0;
  std::optional<PlanStep> deferredSeed_;  // the first step, its keys not yet walked
  SplitMix64 random_;
};

// The rows the planner takes after a step from its walks' estimate: theirs;
// or, where none got through a step that some entered, half a walk's share
// of the rows before (fewer than one walk passed). That is low where the few
// rows that go on have many neighbours each; where the characteristic sets
// price the step (`star`: the rows they give), the geometric mean of the two
// is taken, the sets being high where the step is more selective than they
// know. On WatDiv SF100 that took the planner's p99 q-error from 89 to 52
// and its p90 from 2.37 to 2.29, random BGPs unchanged at p99
// (benchmarks/results/estimate-quality-dev-2core-no-survivor).
double rowsAfter(const StepEstimate& step, double rowsBefore, uint64_t survivorsBefore,
                 std::optional<double> star = std::nullopt);

// Estimates for the first steps of `plan` that walks can take.
std::vector<StepEstimate> wanderJoin(const ComponentPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                                     const WalkOptions& options, WalkMode mode = WalkMode::Plain);

}  // namespace gsparql::engine
