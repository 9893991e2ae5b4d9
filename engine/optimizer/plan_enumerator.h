#pragma once
// The enumerators of a component's join orders, as DuckDB's plan_enumerator
// holds its approximate and exact solvers. The approximate one is greedy:
// each next vertex is the one whose step makes the fewest rows. The exact one
// is dynamic programming over the connected sets of a component's vertices
// (DPccp, restricted to the vertex-at-a-time plans both executors run: each
// step adds one vertex adjacent to those bound): the cheapest plan of every
// connected set is the cheapest plan of a connected set one vertex smaller
// plus the step that adds the vertex. Steps are priced by the cost model
// (cost_model.h) on the estimates of walks that follow the plan being built
// (sample inheritance: a set's walks are its best predecessor's, taken one
// step further).
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "engine/optimizer/prefix_estimate.h"
#include "gsparql/cost_model.h"

namespace gsparql::engine {

// Beyond this many vertices a component's connected sets are too many to
// enumerate in the time planning may take; the greedy orderers plan it.
inline constexpr size_t kMaxEnumeratedVertices = 12;

// The cheapest plan of `component` (at most kMaxEnumeratedVertices vertices)
// under `costs`, from `start` (the vertices of earlier components bound),
// among those that cost less than `below` (nullopt where none does: a set
// whose plan costs that much is not extended, as steps only add to a cost,
// so a bound the caller needs beaten spares the estimates of most sets).
// Where no edge joins the vertices bound to the others (only a predicate
// variable that names a vertex does), the next vertex starts anew, as in
// the greedy orderers.
std::optional<PartialPlan> cheapestPlan(const std::vector<uint32_t>& component, const StepBuilder& start,
                                        const std::optional<WalkSample>& sample, const ExecutorCosts& costs,
                                        double below = std::numeric_limits<double>::infinity());

// The connected sets of `component`'s vertices (at most
// kMaxEnumeratedVertices), joined by the BGP's edges: the sets the dynamic
// programming plans, each estimated once where the cost model prices no
// candidates.
size_t connectedSets(const BoundBgp& bgp, const std::vector<uint32_t>& component);

// The same dynamic programming, handing out the cheapest plan of every set
// it reached (indexed by set, bit i: component[i]; nullopt for the others)
// where `keepAll`, else of the whole component only (the last).
std::vector<std::optional<PartialPlan>> cheapestPlans(const std::vector<uint32_t>& component,
                                                     const StepBuilder& start,
                                                     const std::optional<WalkSample>& sample,
                                                     const ExecutorCosts& costs, bool keepAll,
                                                     double below = std::numeric_limits<double>::infinity());

// A plan's rows over its steps (C_out): what the greedy plans minimise.
double rowsOverSteps(const ComponentPlan& plan);

// Other seeds are tried only where the statistics' seed leads to a plan
// whose steps the walks estimate to make at least this many rows: below, the
// search would cost more than it can save.
inline constexpr double kSeedSearchAbove = 100000;

// SGSI's seed takes a constant first where there is one, but its first step
// may make many rows where another vertex has far fewer candidates of its
// own (among which the constant's edge is checked instead). Whether a
// greedy pass from a vertex with `ownCandidates` candidates may pay in place
// of `plan`'s: its seed is a constant, its first step makes kFewerOwnCandidates
// times as many rows and kFanoutPerTrialStep rows per vertex squared (a
// pass's walks grow with the square of the vertices: each step tries each).
bool worthSeedingInstead(const ComponentPlan& plan, double ownCandidates);
inline constexpr double kFewerOwnCandidates = 1.5;
inline constexpr double kFanoutPerTrialStep = 30;

// The greedy plan of `component` from `start`. Without a sample, the
// statistics choose the seed and each next vertex, and estimate their rows.
// With one, the statistics' seed and, where its plan makes many rows (and
// `searchSeeds`: false where the caller enumerates every order of a plan
// that makes as many rows, seeds included), a few more seeds are tried; from
// each, the next vertex is always the one whose step the sample's walks
// estimate to make the fewest rows; the plan kept makes the fewest rows over
// its steps. Where walks cannot go on, the statistics take over.
PartialPlan greedyPlan(const std::vector<uint32_t>& component, const StepBuilder& start,
                       const std::optional<WalkSample>& sample, bool searchSeeds);
// The greedy plan from `seed`.
PartialPlan greedyPlanFrom(const std::vector<uint32_t>& component, uint32_t seed, const StepBuilder& start,
                           const std::optional<WalkSample>& sample);

}  // namespace gsparql::engine
