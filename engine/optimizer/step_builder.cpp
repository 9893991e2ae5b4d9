#include "engine/optimizer/step_builder.h"

#include <algorithm>
#include <limits>

namespace gsparql::engine {
namespace {

using pcsr::Direction;

Direction sideOf(const BoundEdge& e, uint32_t vertex) { return e.from == vertex ? Direction::Out : Direction::In; }

Direction opposite(Direction d) { return d == Direction::Out ? Direction::In : Direction::Out; }

}  // namespace

double EdgeStatistics::keys(const BoundEdge& e, Direction side) const {
  if (e.predicateIsVariable) return vertexCount();
  const auto& p = catalog_->predicates[e.predicate];
  return std::max<double>(1, side == Direction::Out ? p.distinctSubjects : p.distinctObjects);
}

double EdgeStatistics::fanout(const BoundEdge& e, Direction side) const {
  const double triples = e.predicateIsVariable ? static_cast<double>(catalog_->tripleCount)
                                               : static_cast<double>(catalog_->predicates[e.predicate].triples);
  return triples / keys(e, side);
}

double EdgeStatistics::vertexCount() const { return std::max<double>(1, static_cast<double>(catalog_->vertexCount)); }

StepBuilder::StepBuilder(const BoundBgp& bgp, const Catalog& catalog)
    : bgp_(&bgp), stats_(catalog), stars_(catalog), keyedBy_(bgp.vertices.size()), bound_(bgp.vertices.size(), false),
      predicateBound_(bgp.predicateVariables.size(), false) {}

bool StepBuilder::predicateKnown(const BoundEdge& e) const {
  return !e.predicateIsVariable || predicateBound_[e.predicate];
}

double StepBuilder::seedCandidates(uint32_t v) const {
  if (!bgp_->vertices[v].isVariable) return 1;
  if (bgp_->vertices[v].isConstantSet()) return static_cast<double>(bgp_->vertices[v].constants.size());
  double best = stats_.vertexCount();
  for (const auto& e : bgp_->edges) {
    if (touches(e, v) && !e.predicateIsVariable) best = std::min(best, stats_.keys(e, sideOf(e, v)));
  }
  return best;
}

uint32_t StepBuilder::degree(uint32_t v) const {
  return static_cast<uint32_t>(
      std::count_if(bgp_->edges.begin(), bgp_->edges.end(), [&](const BoundEdge& e) { return touches(e, v); }));
}

uint32_t StepBuilder::bestSeed(const std::vector<uint32_t>& component) const {
  uint32_t best = 0;
  double bestScore = std::numeric_limits<double>::infinity();
  for (uint32_t v : component) {
    if (bound_[v]) continue;
    const double score = seedCandidates(v) / std::max(1u, degree(v));
    if (score < bestScore) bestScore = score, best = v;
  }
  return best;
}

std::optional<uint32_t> StepBuilder::cheapestDriver(uint32_t v) const {
  std::optional<uint32_t> best;
  double bestFanout = std::numeric_limits<double>::infinity();
  for (uint32_t i = 0; i < bgp_->edges.size(); ++i) {
    const auto& e = bgp_->edges[i];
    if (!touches(e, v) || otherEnd(e, v) == v || !bound_[otherEnd(e, v)]) continue;
    const double fanout = stats_.fanout(e, sideOf(e, otherEnd(e, v))) * (predicateKnown(e) ? 1 : 4);
    if (fanout < bestFanout) bestFanout = fanout, best = i;
  }
  return best;
}

double StepBuilder::adjacencyScore(uint32_t v, uint32_t driver) const {
  const auto& e = bgp_->edges[driver];
  const BoundVertex& vertex = bgp_->vertices[v];
  const double fanout = vertex.isConstantSet() ? static_cast<double>(vertex.constants.size())
                        : vertex.isVariable    ? stats_.fanout(e, sideOf(e, otherEnd(e, v)))
                                               : 0;
  return fanout / static_cast<double>(connectingEdges(v));
}

std::optional<uint32_t> StepBuilder::bestAdjacent(const std::vector<uint32_t>& component) const {
  std::optional<uint32_t> best;
  double bestScore = std::numeric_limits<double>::infinity();
  for (uint32_t v : component) {
    if (bound_[v]) continue;
    const auto driver = cheapestDriver(v);
    if (!driver) continue;
    const double score = adjacencyScore(v, *driver);
    if (score < bestScore) bestScore = score, best = v;
  }
  return best;
}

bool StepBuilder::closesAll(uint32_t v) const {
  return std::none_of(bgp_->edges.begin(), bgp_->edges.end(), [&](const BoundEdge& e) {
    return touches(e, v) && otherEnd(e, v) != v && !bound_[otherEnd(e, v)];
  });
}

uint32_t StepBuilder::connectingEdges(uint32_t v) const {
  uint32_t n = 0;
  for (const auto& e : bgp_->edges) n += touches(e, v) && bound_[otherEnd(e, v)];
  return std::max(n, 1u);
}

EdgeUse StepBuilder::use(uint32_t edge, uint32_t boundVertex) {
  const auto& e = bgp_->edges[edge];
  EdgeUse u{edge, boundVertex, sideOf(e, boundVertex), false};
  if (e.predicateIsVariable && !predicateBound_[e.predicate]) {
    u.bindsPredicate = true;
    predicateBound_[e.predicate] = true;
  }
  return u;
}

PlanStep StepBuilder::extendStep(uint32_t v) {
  PlanStep step;
  step.vertex = v;
  const uint32_t driver = *cheapestDriver(v);
  if (bgp_->vertices[v].isConstantSet()) {
    step.source = CandidateSource::Constants;  // each checked against the bound vertices
  } else if (bgp_->vertices[v].isVariable) {
    step.source = CandidateSource::Neighbours;
    step.driver = use(driver, otherEnd(bgp_->edges[driver], v));
  }
  finishStep(step, step.source == CandidateSource::Neighbours ? std::optional(driver) : std::nullopt);
  return step;
}

PlanStep StepBuilder::seedStep(uint32_t v) {
  PlanStep step;
  step.vertex = v;
  const BoundVertex& vertex = bgp_->vertices[v];
  const bool fromEdges = vertex.isVariable && !vertex.isConstantSet();
  step.source = vertex.isConstantSet() ? CandidateSource::Constants
                : fromEdges            ? CandidateSource::AllVertices
                                       : CandidateSource::Constant;
  double best = std::numeric_limits<double>::infinity();
  for (uint32_t i = 0; fromEdges && i < bgp_->edges.size(); ++i) {
    const auto& e = bgp_->edges[i];
    if (!touches(e, v) || !predicateKnown(e)) continue;
    const double keys = stats_.keys(e, sideOf(e, v));
    if (keys < best) {
      best = keys;
      step.source = CandidateSource::PredicateKeys;
      step.driver = EdgeUse{i, v, sideOf(e, v), false};
    }
  }
  if (step.source == CandidateSource::PredicateKeys && step.driver.direction == Direction::Out) {
    keyedBy_[v] = bgp_->edges[step.driver.edge].predicate;
  }
  finishStep(step, std::nullopt);
  return step;
}

// Marks v bound and lists every edge that can now be checked.
void StepBuilder::finishStep(PlanStep& step, std::optional<uint32_t> consumed) {
  const uint32_t v = step.vertex;
  bound_[v] = true;
  for (uint32_t i = 0; i < bgp_->edges.size(); ++i) {
    const auto& e = bgp_->edges[i];
    if (i == consumed || !touches(e, v) || !bound_[otherEnd(e, v)]) continue;
    step.checks.push_back(use(i, otherEnd(e, v)));
  }
  for (const auto& e : bgp_->edges) {
    if (!e.predicateVertex || !predicateBound_[e.predicate] || !bound_[*e.predicateVertex]) continue;
    PredicateVertexCheck check{bgp_->predicateColumn(e), *e.predicateVertex};
    if (emittedPredicateChecks_.insert({check.predicateColumn, check.vertex}).second) {
      step.predicateVertexChecks.push_back(check);
    }
  }
}

double StepBuilder::candidateFactor(const PlanStep& step) const {
  switch (step.source) {
    case CandidateSource::Constant: return 1;
    case CandidateSource::Constants: return static_cast<double>(bgp_->vertices[step.vertex].constants.size());
    case CandidateSource::AllVertices: return stats_.vertexCount();
    case CandidateSource::PredicateKeys: return stats_.keys(bgp_->edges[step.driver.edge], step.driver.direction);
    case CandidateSource::Neighbours:
      return starFactor(step, step.driver)
          .value_or(stats_.fanout(bgp_->edges[step.driver.edge], step.driver.direction));
  }
  return 1;
}

double StepBuilder::checkFactor(const PlanStep& step) const {
  double factor = 1;
  for (const auto& check : step.checks) {
    const auto& e = bgp_->edges[check.edge];
    // Of the neighbours a bound vertex has through the edge, the share that is the step's one.
    const double neighbours = starFactor(step, check).value_or(stats_.fanout(e, check.direction));
    factor *= std::min(1.0, neighbours / stats_.keys(e, opposite(check.direction)));
  }
  return factor;
}

bool StepBuilder::starKnows(const PlanStep& step) const {
  if (step.source != CandidateSource::Neighbours) return false;
  const auto before = starBefore(step, step.driver);
  return before && (!before->empty() || keyedBy_[step.driver.boundVertex]);
}

std::optional<std::vector<uint32_t>> StepBuilder::starBefore(const PlanStep& step, const EdgeUse& use) const {
  const BoundEdge& edge = bgp_->edges[use.edge];
  const uint32_t s = use.boundVertex;
  if (!stars_.available() || use.direction != Direction::Out || s == step.vertex || edge.predicateIsVariable) {
    return std::nullopt;
  }
  // The star of s before: its edges to vertices bound before the step; then
  // the step's edges out of s up to this one (the driver first).
  std::vector<uint32_t> before;
  for (const BoundEdge& e : bgp_->edges) {
    if (e.from == s && !e.predicateIsVariable && e.to != step.vertex && bound_[e.to]) before.push_back(e.predicate);
  }
  const auto fromS = [&](const EdgeUse& u) { return u.direction == Direction::Out && u.boundVertex == s; };
  if (&use != &step.driver && step.source == CandidateSource::Neighbours && fromS(step.driver) &&
      !bgp_->edges[step.driver.edge].predicateIsVariable) {
    before.push_back(bgp_->edges[step.driver.edge].predicate);
  }
  for (const EdgeUse& check : step.checks) {
    if (&check == &use) break;
    if (fromS(check) && !bgp_->edges[check.edge].predicateIsVariable) before.push_back(bgp_->edges[check.edge].predicate);
  }
  return before;
}

std::optional<double> StepBuilder::starFactor(const PlanStep& step, const EdgeUse& use) const {
  auto before = starBefore(step, use);
  if (!before) return std::nullopt;
  const uint32_t s = use.boundVertex;
  std::vector<uint32_t> required;
  if (keyedBy_[s]) required.push_back(*keyedBy_[s]);
  const double rowsBefore = stars_.rows(required, *before);
  if (!(rowsBefore > 0)) return std::nullopt;
  before->push_back(bgp_->edges[use.edge].predicate);
  return stars_.rows(required, *before) / rowsBefore;
}

}  // namespace gsparql::engine
