#include "engine/optimizer/step_matcher.h"

#include "engine/bgp/set_operations.h"
#include "storage/graph_store.h"

namespace gsparql::engine {
namespace {

uint32_t predicateOf(const BoundBgp& bgp, const EdgeUse& use, const uint32_t* row) {
  const BoundEdge& e = bgp.edges[use.edge];
  return e.predicateIsVariable ? row[bgp.predicateColumn(e)] : e.predicate;
}

std::span<const uint32_t> neighbours(const GraphStore& store, const BoundBgp& bgp, const EdgeUse& use,
                                     const uint32_t* row) {
  return store.adjacency(use.direction).predicate(predicateOf(bgp, use, row)).neighbours(row[use.boundVertex]);
}

}  // namespace

StepMatcher::Candidates StepMatcher::candidatesOf(const PlanStep& step, const uint32_t* row) const {
  std::span<const uint32_t> list;
  switch (step.source) {
    case CandidateSource::Constant: list = {&bgp_->vertices[step.vertex].id, 1}; break;
    case CandidateSource::Constants: list = bgp_->vertices[step.vertex].constants; break;
    case CandidateSource::AllVertices: return {{}, store_->catalog().vertexCount};
    case CandidateSource::PredicateKeys:
      list = store_->adjacency(step.driver.direction).predicate(predicateOf(*bgp_, step.driver, row)).keys();
      break;
    case CandidateSource::Neighbours: list = neighbours(*store_, *bgp_, step.driver, row); break;
  }
  return {list, list.size()};
}

bool StepMatcher::checksHold(const PlanStep& step, const uint32_t* row) const {
  for (const EdgeUse& check : step.checks) {
    const BoundEdge& e = bgp_->edges[check.edge];
    const uint32_t other = e.from == check.boundVertex ? e.to : e.from;
    const uint32_t target = row[check.boundVertex == step.vertex ? other : step.vertex];
    if (!containsSorted(neighbours(*store_, *bgp_, check, row), target)) return false;
  }
  for (const auto& check : step.predicateVertexChecks) {
    if (predicateVertex_[row[check.predicateColumn]] != row[check.vertex]) return false;
  }
  return true;
}

void StepMatcher::prepare(const PlanStep& step) {
  if (!step.predicateVertexChecks.empty() && predicateVertex_.empty()) predicateVertex_ = predicateVertexIds(*store_);
}

}  // namespace gsparql::engine
