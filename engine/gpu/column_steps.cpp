#include "engine/gpu/column_steps.h"

#include <algorithm>

namespace gsparql::engine::gpu {
namespace {

// An edge seen from one of its ends: the lookup key, the other end, and
// which side the key is on.
struct Oriented {
  uint32_t from, to;
  pcsr::Direction direction;
};

Oriented orient(const BoundEdge& e, uint32_t from) {
  return {from, e.from == from ? e.to : e.from, e.from == from ? pcsr::Direction::Out : pcsr::Direction::In};
}

uint32_t asProbed(uint32_t column, uint32_t candidateColumn) { return column == candidateColumn ? kCandidate : column; }

class StepTranslator {
 public:
  StepTranslator(const PlanStep& step, const BoundBgp& bgp, const std::vector<bool>& predicateBound)
      : step_(step), bgp_(bgp), boundBefore_(predicateBound) {
    if (step.source == CandidateSource::Neighbours) uses_.push_back(&step.driver);
    for (const EdgeUse& check : step.checks) uses_.push_back(&check);
  }

  std::vector<ColumnStep> translate() {
    std::vector<ColumnStep> steps{vertexStep()};
    for (const EdgeUse* use : uses_) {
      if (use->bindsPredicate) steps.push_back(predicateStep(*use));
    }
    ColumnStep& last = steps.back();
    for (const PredicateVertexCheck& check : step_.predicateVertexChecks) {
      last.predicateVertexProbes.push_back(
          {asProbed(check.predicateColumn, last.column), asProbed(check.vertex, last.column)});
    }
    return steps;
  }

 private:
  const BoundEdge& edgeOf(const EdgeUse& use) const { return bgp_.edges[use.edge]; }
  bool predicateKnown(const BoundEdge& e) const { return !e.predicateIsVariable || boundBefore_[e.predicate]; }

  ColumnStep vertexStep() const {
    const uint32_t v = step_.vertex;
    ColumnStep s;
    s.column = v;
    switch (step_.source) {
      case CandidateSource::Constant:
        s.source = ColumnSource::Constant;
        s.constant = bgp_.vertices[v].id;
        break;
      case CandidateSource::Constants:
        s.source = ColumnSource::Constants;
        s.constants = bgp_.vertices[v].constants;
        break;
      case CandidateSource::AllVertices: s.source = ColumnSource::AllVertices; break;
      case CandidateSource::PredicateKeys: seedFromKeys(s); break;
      case CandidateSource::Neighbours: extendFromNeighbours(s); break;
    }
    for (const EdgeUse& check : step_.checks) {
      const BoundEdge& e = edgeOf(check);
      const Oriented o = orient(e, check.boundVertex);
      const uint32_t from = asProbed(o.from, v);
      if (!e.predicateIsVariable) {
        s.adjacencyProbes.push_back({e.predicate, o.direction, from});
      } else if (predicateKnown(e)) {
        s.pairProbes.push_back({o.direction, from, bgp_.predicateColumn(e), kCandidate});
      }  // else: checked by the step of its predicate variable
    }
    return s;
  }

  void seedFromKeys(ColumnStep& s) const {
    const BoundEdge& e = edgeOf(step_.driver);
    s.direction = step_.driver.direction;
    s.source = e.predicateIsVariable ? ColumnSource::RowPredicateKeys : ColumnSource::PredicateKeys;
    s.predicate = e.predicateIsVariable ? bgp_.predicateColumn(e) : e.predicate;
  }

  void extendFromNeighbours(ColumnStep& s) const {
    const BoundEdge& e = edgeOf(step_.driver);
    s.direction = step_.driver.direction;
    s.from = step_.driver.boundVertex;
    if (!e.predicateIsVariable) {
      s.source = ColumnSource::Neighbours;
      s.predicate = e.predicate;
      return;
    }
    s.source = ColumnSource::DistinctNeighbours;
    if (predicateKnown(e)) s.pairProbes.push_back({s.direction, s.from, bgp_.predicateColumn(e), kCandidate});
  }

  // Binds the predicate variable of `binder`'s edge; every other edge of
  // this step with that variable must hold for the candidate predicate.
  ColumnStep predicateStep(const EdgeUse& binder) const {
    const BoundEdge& e = edgeOf(binder);
    const uint32_t column = bgp_.predicateColumn(e);
    const Oriented o = orient(e, binder.boundVertex);
    ColumnStep s;
    s.column = column;
    s.isVertex = false;
    s.source = ColumnSource::PredicatesBetween;
    s.direction = o.direction;
    s.from = o.from;
    s.to = o.to;
    for (const EdgeUse* use : uses_) {
      const BoundEdge& other = edgeOf(*use);
      if (use == &binder || !other.predicateIsVariable || bgp_.predicateColumn(other) != column) continue;
      const Oriented p = orient(other, use->boundVertex);
      s.pairProbes.push_back({p.direction, p.from, kCandidate, p.to});
    }
    return s;
  }

  const PlanStep& step_;
  const BoundBgp& bgp_;
  const std::vector<bool>& boundBefore_;
  std::vector<const EdgeUse*> uses_;
};

}  // namespace

bool ColumnStep::drawsFromAllPredicates() const {
  return source == ColumnSource::RowPredicateKeys || source == ColumnSource::DistinctNeighbours ||
         source == ColumnSource::PredicatesBetween;
}

std::vector<ColumnStep> columnSteps(const PlanStep& step, const BoundBgp& bgp, std::vector<bool>& predicateBound) {
  std::vector<ColumnStep> steps = StepTranslator(step, bgp, predicateBound).translate();
  for (const ColumnStep& s : steps) {
    if (!s.isVertex) predicateBound[s.column - bgp.vertices.size()] = true;
  }
  return steps;
}

}  // namespace gsparql::engine::gpu
