#include "distributed/partitioned_component.h"

#include <algorithm>
#include <numeric>
#include <span>
#include <stdexcept>

#include "storage/graph_store.h"

namespace gsparql::distributed {
namespace {

using engine::BoundBgp;
using engine::CandidateSource;
using engine::EdgeUse;
using engine::IdRows;
using engine::PlanStep;

pcsr::Direction flipped(pcsr::Direction d) {
  return d == pcsr::Direction::Out ? pcsr::Direction::In : pcsr::Direction::Out;
}

// This rank's view of the graph: the adjacency of the vertices it owns, and
// nothing else (a lookup of another rank's vertex is a bug, not a miss).
class OwnedAdjacency {
 public:
  OwnedAdjacency(const GraphStore& store, const VertexPartition& partition) : store_(store), partition_(partition) {}

  std::span<const uint32_t> neighbours(pcsr::Direction d, uint32_t predicate, uint32_t vertex) const {
    if (!partition_.owns(vertex)) throw std::logic_error("partitioned run: a lookup of a vertex of another rank");
    return store_.adjacency(d).predicate(predicate).neighbours(vertex);
  }

 private:
  const GraphStore& store_;
  const VertexPartition& partition_;
};

class ComponentRun {
 public:
  ComponentRun(const BoundBgp& bgp, const GraphStore& store, const VertexPartition& partition,
               const RowExchange& exchange)
      : bgp_(bgp), store_(store), partition_(partition), exchange_(exchange), adjacency_(store, partition),
        width_(bgp.columnCount()) {}

  IdRows run(const engine::ComponentPlan& plan) {
    IdRows rows = seed(plan.steps.front());
    for (size_t k = 1; k < plan.steps.size(); ++k) rows = extend(plan.steps[k], std::move(rows));
    return rows;
  }

 private:
  // The first step's candidates that this rank owns, checked here.
  IdRows seed(const PlanStep& step) {
    IdRows rows(width_);
    std::vector<uint32_t> row(width_, engine::kNoId);
    forEachCandidate(step, [&](uint32_t c) {
      if (!partition_.owns(c)) return;
      row[step.vertex] = c;
      if (passesChecks(step, row)) rows.appendRow(row);
    });
    return rows;
  }

  // One step: candidates found where the driver lives, checked where the
  // new vertex lives.
  IdRows extend(const PlanStep& step, IdRows rows) {
    IdRows candidates(width_);
    if (step.source == CandidateSource::Neighbours) {
      rows = shipTo(rows, step.driver.boundVertex);
      const uint32_t p = bgp_.edges[step.driver.edge].predicate;
      for (size_t r = 0; r < rows.rows(); ++r) {
        std::vector<uint32_t> row(rows.row(r).begin(), rows.row(r).end());
        for (uint32_t c : adjacency_.neighbours(step.driver.direction, p, row[step.driver.boundVertex])) {
          row[step.vertex] = c;
          candidates.appendRow(row);
        }
      }
    } else {  // candidates known without a lookup: extend the rows where they are
      for (size_t r = 0; r < rows.rows(); ++r) {
        std::vector<uint32_t> row(rows.row(r).begin(), rows.row(r).end());
        forEachCandidate(step, [&](uint32_t c) {
          row[step.vertex] = c;
          candidates.appendRow(row);
        });
      }
    }
    if (step.checks.empty()) return candidates;
    candidates = shipTo(candidates, step.vertex);
    IdRows kept(width_);
    for (size_t r = 0; r < candidates.rows(); ++r) {
      if (passesChecks(step, candidates.row(r))) kept.appendRow(candidates.row(r));
    }
    return kept;
  }

  // Each row to the rank that owns its vertex `column`.
  IdRows shipTo(const IdRows& rows, uint32_t column) const {
    std::vector<IdRows> outgoing(partition_.ranks(), IdRows(width_));
    for (size_t r = 0; r < rows.rows(); ++r) outgoing[partition_.owner(rows.at(r, column))].appendRow(rows.row(r));
    return exchange_.exchange(outgoing, width_);
  }

  // Every edge between the step's vertex and one bound before it (or
  // itself), read from the step's vertex's own adjacency: the edge u -> w
  // holds where u is among w's in-neighbours.
  bool passesChecks(const PlanStep& step, std::span<const uint32_t> row) const {
    const uint32_t w = row[step.vertex];
    return std::all_of(step.checks.begin(), step.checks.end(), [&](const EdgeUse& check) {
      const uint32_t p = bgp_.edges[check.edge].predicate;
      const std::span<const uint32_t> around = adjacency_.neighbours(flipped(check.direction), p, w);
      return std::binary_search(around.begin(), around.end(), row[check.boundVertex]);
    });
  }

  // The candidates of a step that needs no lookup: a constant, a set of
  // them, a predicate's keys, every vertex (metadata every rank holds).
  template <typename F>
  void forEachCandidate(const PlanStep& step, F&& f) const {
    switch (step.source) {
      case CandidateSource::Constant:
        if (bgp_.vertices[step.vertex].id != engine::kNoId) f(bgp_.vertices[step.vertex].id);
        return;
      case CandidateSource::Constants:
        for (uint32_t c : bgp_.vertices[step.vertex].constants) f(c);
        return;
      case CandidateSource::PredicateKeys:
        for (uint32_t c : store_.adjacency(step.driver.direction).predicate(bgp_.edges[step.driver.edge].predicate).keys()) f(c);
        return;
      case CandidateSource::AllVertices:
        for (uint32_t c = 0; c < store_.catalog().vertexCount; ++c) f(c);
        return;
      case CandidateSource::Neighbours:
        throw std::logic_error("partitioned run: a first step from an earlier vertex");
    }
  }

  const BoundBgp& bgp_;
  const GraphStore& store_;
  const VertexPartition& partition_;
  const RowExchange& exchange_;
  OwnedAdjacency adjacency_;
  uint32_t width_;
};

}  // namespace

std::string unsupportedReason(const engine::ComponentPlan& plan, const BoundBgp& bgp) {
  for (const PlanStep& step : plan.steps) {
    if (!step.predicateVertexChecks.empty()) return "a predicate variable that also names a vertex";
    const auto variable = [&](const EdgeUse& use) { return bgp.edges[use.edge].predicateIsVariable; };
    if (step.source != CandidateSource::Constant && step.source != CandidateSource::Constants &&
        step.source != CandidateSource::AllVertices && variable(step.driver)) {
      return "a predicate variable";
    }
    if (std::any_of(step.checks.begin(), step.checks.end(), variable)) return "a predicate variable";
  }
  return {};
}

IdRows runPartitioned(const engine::ComponentPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                      const VertexPartition& partition, const RowExchange& exchange) {
  return ComponentRun(bgp, store, partition, exchange).run(plan);
}

}  // namespace gsparql::distributed
