#pragma once
// Builds a component's join steps one vertex at a time (SGSI's vertex-
// oriented join): where the new vertex's candidates come from, which edges
// to bound vertices must hold, and the per-predicate statistics' view of
// them. It keeps which vertices and predicate variables are bound, so the
// orderers (the greedy ones in join_orderer.cpp, the dynamic programming of
// plan_enumerator.cpp) only decide which vertex comes next.
#include <cstdint>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "engine/bgp/bound_bgp.h"
#include "engine/bgp/plan.h"
#include "engine/optimizer/star_statistics.h"
#include "storage/catalog.h"

namespace gsparql::engine {

// Statistics seen from one end of an edge.
class EdgeStatistics {
 public:
  explicit EdgeStatistics(const Catalog& catalog) : catalog_(&catalog) {}

  // Vertices that can sit at `side` of the edge (its subject for Out).
  double keys(const BoundEdge& e, pcsr::Direction side) const;
  // Average number of neighbours reached from a vertex at `side`.
  double fanout(const BoundEdge& e, pcsr::Direction side) const;
  double vertexCount() const;

 private:
  const Catalog* catalog_;
};

class StepBuilder {
 public:
  StepBuilder(const BoundBgp& bgp, const Catalog& catalog);

  bool isBound(uint32_t v) const { return bound_[v]; }

  // The step that binds v first in its component: its cheapest candidate
  // source by the statistics (the predicate with the fewest keys on v's side).
  PlanStep seedStep(uint32_t v);
  // The step that binds v from the bound vertices; v must have an edge to one.
  PlanStep extendStep(uint32_t v);

  // The candidates a seed step for v draws, by the statistics: 1 for a
  // constant, else the keys of its rarest predicate on its side.
  double seedCandidates(uint32_t v) const;
  // SGSI's seed: the unbound vertex with the fewest candidates per incident edge.
  uint32_t bestSeed(const std::vector<uint32_t>& component) const;
  // The cheapest edge from a bound vertex to v, if any.
  std::optional<uint32_t> cheapestDriver(uint32_t v) const;
  // The statistics' preference for binding v next through `driver`: its
  // fanout per edge that connects v to bound vertices (constants first).
  double adjacencyScore(uint32_t v, uint32_t driver) const;
  // Whether every edge of v leads to a bound vertex (or back to v): binding
  // v next makes no further vertex adjacent (a leaf, or the last of a cycle).
  bool closesAll(uint32_t v) const;
  // The unbound vertex of `component` the statistics prefer next, if any is adjacent.
  std::optional<uint32_t> bestAdjacent(const std::vector<uint32_t>& component) const;

  // Candidates per row before the step (its source's count), and the
  // fraction of them its checks keep, by the statistics. Call them right
  // after building `step`. Edges out of a vertex bound before, with a
  // constant predicate, are priced by the characteristic sets where the
  // catalog has them (the subject's star so far against the star with the
  // new edges); the others by each predicate's averages, independently.
  double candidateFactor(const PlanStep& step) const;
  double checkFactor(const PlanStep& step) const;
  // Whether candidateFactor(step) comes from the characteristic sets of a
  // star of at least one edge before the step (where they know
  // correlations), not from a predicate's averages alone.
  bool starKnows(const PlanStep& step) const;

 private:
  bool touches(const BoundEdge& e, uint32_t v) const { return e.from == v || e.to == v; }
  uint32_t otherEnd(const BoundEdge& e, uint32_t v) const { return e.from == v ? e.to : e.from; }
  bool predicateKnown(const BoundEdge& e) const;
  uint32_t degree(uint32_t v) const;
  uint32_t connectingEdges(uint32_t v) const;
  EdgeUse use(uint32_t edge, uint32_t boundVertex);
  void finishStep(PlanStep& step, std::optional<uint32_t> consumed);
  // The factor by which `use` (an edge out of a vertex bound before `step`)
  // multiplies the rows of its subject's star, given the edges of the step
  // before it; nullopt where the characteristic sets cannot tell.
  std::optional<double> starFactor(const PlanStep& step, const EdgeUse& use) const;
  // The predicates of the star of `use`'s bound vertex before `use` (as
  // starFactor prices it); nullopt where the characteristic sets cannot price it.
  std::optional<std::vector<uint32_t>> starBefore(const PlanStep& step, const EdgeUse& use) const;

  const BoundBgp* bgp_;
  EdgeStatistics stats_;
  StarStatistics stars_;
  // The predicate whose subjects a vertex was drawn from (a seed step's
  // keys), which its star must have.
  std::vector<std::optional<uint32_t>> keyedBy_;
  std::vector<bool> bound_;
  std::vector<bool> predicateBound_;
  std::set<std::pair<uint32_t, uint32_t>> emittedPredicateChecks_;
};

}  // namespace gsparql::engine
