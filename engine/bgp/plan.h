#pragma once
// The plan both executors consume: for each connected component of a BGP, an
// order of query vertices and, per step, where the new vertex's candidates come
// from and which edges to earlier vertices must hold (the SGSI vertex-oriented
// join). Plain data, printed by --explain.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "storage/pcsr_format.h"

namespace gsparql::engine {

enum class CandidateSource : uint8_t {
  Constant,       // the vertex is a constant: its own id
  Constants,      // the vertex is limited to a set of constants (BoundVertex::constants): each of them
  Neighbours,     // neighbours of an earlier vertex through the driver edge
  PredicateKeys,  // every vertex with the driver edge's predicate on its side
  AllVertices,    // no better source: the only edges have unbound predicate variables
};

// One edge seen from the vertex whose value is known when it is used.
struct EdgeUse {
  uint32_t edge = 0;
  uint32_t boundVertex = 0;  // the known endpoint (the step's own vertex for a self-loop)
  pcsr::Direction direction = pcsr::Direction::Out;  // Out: boundVertex is the subject
  bool bindsPredicate = false;  // the edge's predicate variable is first bound here
};

// A predicate variable that also names a vertex: both must denote one term.
struct PredicateVertexCheck {
  uint32_t predicateColumn = 0;
  uint32_t vertex = 0;
};

// Where a step's row estimate comes from.
enum class EstimateSource : uint8_t {
  Statistics,  // per-predicate statistics (the statistics optimizer, or where walks cannot go)
  Walks,       // random walks through the data (Wander Join); estimateError says how sure
  NoSurvivor,  // walks entered the step and none got through: a guess below one walk's share
  Exact,       // the planner's sample held every row of the prefix (wander_join.h)
};

struct PlanStep {
  uint32_t vertex = 0;
  CandidateSource source = CandidateSource::Constant;
  EdgeUse driver;                // Neighbours, PredicateKeys
  std::vector<EdgeUse> checks;   // the other edges between this vertex and bound ones
  std::vector<PredicateVertexCheck> predicateVertexChecks;
  double estimatedRows = 0;
  // The candidates the step's source gives the rows before it, before its
  // checks (the work of its set operations): what the cost model reads.
  double estimatedCandidates = 0;
  EstimateSource estimateSource = EstimateSource::Statistics;
  double estimateError = 0;  // Walks: the standard error relative to the estimate
  // Walks, NoSurvivor: set where a costly plan's estimates were taken again
  // with more walks ("65536 walks on the gpu"); empty: the planner's walks.
  std::string estimateBy;
};

struct ComponentPlan {
  std::vector<PlanStep> steps;
  // Set by the planner in the plan of a COUNT(*) (planner/count_plan.h): the
  // first of the final steps whose rows the executors count as products of
  // candidate counts instead of making them (bgp/counted_leaves.h), which the
  // cost model prices and EXPLAIN shows. Unset: every step makes rows.
  std::optional<size_t> countedLeavesFrom;

  size_t countedLeaves() const { return countedLeavesFrom ? steps.size() - *countedLeavesFrom : 0; }
};

struct BgpPlan {
  std::vector<ComponentPlan> components;

  // Estimated rows of the BGP: the product of its components' last steps.
  double estimatedRows() const {
    double rows = 1;
    for (const auto& component : components) {
      if (!component.steps.empty()) rows *= component.steps.back().estimatedRows;
    }
    return rows;
  }
};

}  // namespace gsparql::engine
