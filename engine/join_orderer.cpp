#include "engine/join_orderer.h"

#include <algorithm>
#include <limits>
#include <set>

namespace gsparql::engine {
namespace {

using pcsr::Direction;

// Statistics seen from one end of an edge.
class EdgeStatistics {
 public:
  explicit EdgeStatistics(const Catalog& catalog) : catalog_(catalog) {}

  // Vertices that can sit at `side` of the edge (its subject for Out).
  double keys(const BoundEdge& e, Direction side) const {
    if (e.predicateIsVariable) return vertexCount();
    const auto& p = catalog_.predicates[e.predicate];
    return std::max<double>(1, side == Direction::Out ? p.distinctSubjects : p.distinctObjects);
  }
  // Average number of neighbours reached from a vertex at `side`.
  double fanout(const BoundEdge& e, Direction side) const {
    double triples = e.predicateIsVariable ? static_cast<double>(catalog_.tripleCount)
                                           : static_cast<double>(catalog_.predicates[e.predicate].triples);
    return triples / keys(e, side);
  }
  double vertexCount() const { return std::max<double>(1, static_cast<double>(catalog_.vertexCount)); }

 private:
  const Catalog& catalog_;
};

Direction sideOf(const BoundEdge& e, uint32_t vertex) {
  return e.from == vertex ? Direction::Out : Direction::In;
}

Direction opposite(Direction d) { return d == Direction::Out ? Direction::In : Direction::Out; }

class ComponentPlanner {
 public:
  ComponentPlanner(const BoundBgp& bgp, const Catalog& catalog)
      : bgp_(bgp), stats_(catalog), bound_(bgp.vertices.size(), false),
        predicateBound_(bgp.predicateVariables.size(), false) {}

  ComponentPlan plan(const std::vector<uint32_t>& component) {
    ComponentPlan plan;
    double rows = 1;
    for (size_t n = 0; n < component.size(); ++n) {
      auto adjacent = bestAdjacent(component);
      PlanStep step = adjacent ? extendStep(*adjacent) : seedStep(bestSeed(component));
      rows *= stepFactor(step);
      step.estimatedRows = rows;
      plan.steps.push_back(std::move(step));
    }
    return plan;
  }

 private:
  bool touches(const BoundEdge& e, uint32_t v) const { return e.from == v || e.to == v; }
  uint32_t otherEnd(const BoundEdge& e, uint32_t v) const { return e.from == v ? e.to : e.from; }
  bool predicateKnown(const BoundEdge& e) const {
    return !e.predicateIsVariable || predicateBound_[e.predicate];
  }

  double seedCandidates(uint32_t v) const {
    if (!bgp_.vertices[v].isVariable) return 1;
    double best = stats_.vertexCount();
    for (const auto& e : bgp_.edges) {
      if (touches(e, v) && !e.predicateIsVariable) best = std::min(best, stats_.keys(e, sideOf(e, v)));
    }
    return best;
  }

  uint32_t degree(uint32_t v) const {
    return static_cast<uint32_t>(std::count_if(bgp_.edges.begin(), bgp_.edges.end(),
                                               [&](const BoundEdge& e) { return touches(e, v); }));
  }

  uint32_t bestSeed(const std::vector<uint32_t>& component) const {
    uint32_t best = 0;
    double bestScore = std::numeric_limits<double>::infinity();
    for (uint32_t v : component) {
      if (bound_[v]) continue;
      double score = seedCandidates(v) / std::max(1u, degree(v));
      if (score < bestScore) bestScore = score, best = v;
    }
    return best;
  }

  // The cheapest edge from a bound vertex to v, if any.
  std::optional<uint32_t> cheapestDriver(uint32_t v) const {
    std::optional<uint32_t> best;
    double bestFanout = std::numeric_limits<double>::infinity();
    for (uint32_t i = 0; i < bgp_.edges.size(); ++i) {
      const auto& e = bgp_.edges[i];
      if (!touches(e, v) || otherEnd(e, v) == v || !bound_[otherEnd(e, v)]) continue;
      double fanout = stats_.fanout(e, sideOf(e, otherEnd(e, v))) * (predicateKnown(e) ? 1 : 4);
      if (fanout < bestFanout) bestFanout = fanout, best = i;
    }
    return best;
  }

  std::optional<uint32_t> bestAdjacent(const std::vector<uint32_t>& component) const {
    std::optional<uint32_t> best;
    double bestScore = std::numeric_limits<double>::infinity();
    for (uint32_t v : component) {
      if (bound_[v]) continue;
      auto driver = cheapestDriver(v);
      if (!driver) continue;
      const auto& e = bgp_.edges[*driver];
      double score = bgp_.vertices[v].isVariable ? stats_.fanout(e, sideOf(e, otherEnd(e, v))) : 0;
      score /= static_cast<double>(connectingEdges(v));
      if (score < bestScore) bestScore = score, best = v;
    }
    return best;
  }

  uint32_t connectingEdges(uint32_t v) const {
    uint32_t n = 0;
    for (const auto& e : bgp_.edges) n += touches(e, v) && bound_[otherEnd(e, v)];
    return std::max(n, 1u);
  }

  EdgeUse use(uint32_t edge, uint32_t boundVertex) {
    const auto& e = bgp_.edges[edge];
    EdgeUse u{edge, boundVertex, sideOf(e, boundVertex), false};
    if (e.predicateIsVariable && !predicateBound_[e.predicate]) {
      u.bindsPredicate = true;
      predicateBound_[e.predicate] = true;
    }
    return u;
  }

  PlanStep extendStep(uint32_t v) {
    PlanStep step;
    step.vertex = v;
    uint32_t driver = *cheapestDriver(v);
    if (bgp_.vertices[v].isVariable) {
      step.source = CandidateSource::Neighbours;
      step.driver = use(driver, otherEnd(bgp_.edges[driver], v));
    }
    finishStep(step, step.source == CandidateSource::Neighbours ? std::optional(driver) : std::nullopt);
    return step;
  }

  PlanStep seedStep(uint32_t v) {
    PlanStep step;
    step.vertex = v;
    if (bgp_.vertices[v].isVariable) step.source = CandidateSource::AllVertices;
    double best = std::numeric_limits<double>::infinity();
    for (uint32_t i = 0; bgp_.vertices[v].isVariable && i < bgp_.edges.size(); ++i) {
      const auto& e = bgp_.edges[i];
      if (!touches(e, v) || !predicateKnown(e)) continue;
      double keys = stats_.keys(e, sideOf(e, v));
      if (keys < best) {
        best = keys;
        step.source = CandidateSource::PredicateKeys;
        step.driver = EdgeUse{i, v, sideOf(e, v), false};
      }
    }
    finishStep(step, std::nullopt);
    return step;
  }

  // Marks v bound and lists every edge that can now be checked.
  void finishStep(PlanStep& step, std::optional<uint32_t> consumed) {
    const uint32_t v = step.vertex;
    bound_[v] = true;
    for (uint32_t i = 0; i < bgp_.edges.size(); ++i) {
      const auto& e = bgp_.edges[i];
      if (i == consumed || !touches(e, v) || !bound_[otherEnd(e, v)]) continue;
      step.checks.push_back(use(i, otherEnd(e, v)));
    }
    for (const auto& e : bgp_.edges) {
      if (!e.predicateVertex || !predicateBound_[e.predicate] || !bound_[*e.predicateVertex]) continue;
      PredicateVertexCheck check{bgp_.predicateColumn(e), *e.predicateVertex};
      if (emittedPredicateChecks_.insert({check.predicateColumn, check.vertex}).second) {
        step.predicateVertexChecks.push_back(check);
      }
    }
  }

  double stepFactor(const PlanStep& step) const {
    double factor = 1;
    switch (step.source) {
      case CandidateSource::Constant: factor = 1; break;
      case CandidateSource::AllVertices: factor = stats_.vertexCount(); break;
      case CandidateSource::PredicateKeys: factor = stats_.keys(bgp_.edges[step.driver.edge], step.driver.direction); break;
      case CandidateSource::Neighbours: factor = stats_.fanout(bgp_.edges[step.driver.edge], step.driver.direction); break;
    }
    for (const auto& check : step.checks) {
      const auto& e = bgp_.edges[check.edge];
      factor *= std::min(1.0, stats_.fanout(e, check.direction) / stats_.keys(e, opposite(check.direction)));
    }
    return factor;
  }

  const BoundBgp& bgp_;
  EdgeStatistics stats_;
  std::vector<bool> bound_;
  std::vector<bool> predicateBound_;
  std::set<std::pair<uint32_t, uint32_t>> emittedPredicateChecks_;
};

class StatisticsOrderer final : public JoinOrderer {
 public:
  BgpPlan plan(const BoundBgp& bgp, const Catalog& catalog) const override {
    BgpPlan plan;
    ComponentPlanner planner(bgp, catalog);
    for (const auto& component : bgp.components) plan.components.push_back(planner.plan(component));
    return plan;
  }
};

}  // namespace

std::unique_ptr<JoinOrderer> makeStatisticsOrderer() { return std::make_unique<StatisticsOrderer>(); }

}  // namespace gsparql::engine
