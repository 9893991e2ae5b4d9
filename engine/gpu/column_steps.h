#pragma once
// The GPU binds one column per kernel step. A plan step that also binds
// predicate variables becomes a vertex step (its vertex's candidates from
// the distinct neighbours over every predicate) followed by one step per
// predicate variable it binds (the predicates between the two ends, from the
// all-predicates adjacency). Plain C++: what each column step draws its
// candidates from and which probes they must pass, by column index.
#include <cstdint>
#include <span>
#include <vector>

#include "engine/bgp/bound_bgp.h"
#include "engine/bgp/plan.h"

namespace gsparql::engine::gpu {

// In a probe, instead of a column: the candidate of the step itself.
inline constexpr uint32_t kCandidate = 0xFFFFFFFFu;

enum class ColumnSource : uint8_t {
  Constant,            // `constant`
  Constants,           // each of `constants` (a vertex limited to a set, BoundVertex::constants)
  PredicateKeys,       // keys of predicate id `predicate` on side `direction`
  RowPredicateKeys,    // keys of the predicate in column `predicate`
  Neighbours,          // neighbours of column `from` via predicate id `predicate`
  DistinctNeighbours,  // neighbours of column `from` via any predicate, each once
  AllVertices,
  PredicatesBetween,   // predicates of the edges from column `from` to column `to`
};

// An edge with a known predicate id: the neighbours of `from` hold the candidate.
struct AdjacencyProbe {
  uint32_t predicate = 0;
  pcsr::Direction direction = pcsr::Direction::Out;
  uint32_t from = 0;  // a column, or kCandidate for a self-loop
};

// An edge whose predicate is a variable: (from, predicate, to) is in the
// all-predicates adjacency of `direction`. Each is a column or kCandidate.
struct VariablePredicateProbe {
  pcsr::Direction direction = pcsr::Direction::Out;
  uint32_t from = 0, predicate = 0, to = 0;
};

// A predicate variable that also names a vertex: both denote one term.
struct PredicateVertexEquality {
  uint32_t predicate = 0, vertex = 0;  // columns, or kCandidate
};

struct ColumnStep {
  uint32_t column = 0;
  bool isVertex = true;  // vertex steps take the candidate filter and injectivity
  ColumnSource source = ColumnSource::Constant;
  uint32_t constant = 0;
  std::span<const uint32_t> constants;  // the BGP's, sorted
  uint32_t predicate = 0;
  pcsr::Direction direction = pcsr::Direction::Out;  // of the source's lookup
  uint32_t from = 0, to = 0;
  std::vector<AdjacencyProbe> adjacencyProbes;
  std::vector<VariablePredicateProbe> pairProbes;
  std::vector<PredicateVertexEquality> predicateVertexProbes;
  // The source reads the all-predicates adjacency (of `direction`).
  bool drawsFromAllPredicates() const;
};

// The column steps of one plan step. `predicateBound` (one flag per
// predicate variable) says which are bound by earlier steps; it is updated.
std::vector<ColumnStep> columnSteps(const PlanStep& step, const BoundBgp& bgp, std::vector<bool>& predicateBound);

}  // namespace gsparql::engine::gpu
