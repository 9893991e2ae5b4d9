#include "engine/join_orderer.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <set>

#include "engine/optimizer/wander_join.h"

namespace gsparql::engine {
namespace {

using pcsr::Direction;

// Statistics seen from one end of an edge.
class EdgeStatistics {
 public:
  explicit EdgeStatistics(const Catalog& catalog) : catalog_(&catalog) {}

  // Vertices that can sit at `side` of the edge (its subject for Out).
  double keys(const BoundEdge& e, Direction side) const {
    if (e.predicateIsVariable) return vertexCount();
    const auto& p = catalog_->predicates[e.predicate];
    return std::max<double>(1, side == Direction::Out ? p.distinctSubjects : p.distinctObjects);
  }
  // Average number of neighbours reached from a vertex at `side`.
  double fanout(const BoundEdge& e, Direction side) const {
    double triples = e.predicateIsVariable ? static_cast<double>(catalog_->tripleCount)
                                           : static_cast<double>(catalog_->predicates[e.predicate].triples);
    return triples / keys(e, side);
  }
  double vertexCount() const { return std::max<double>(1, static_cast<double>(catalog_->vertexCount)); }

 private:
  const Catalog* catalog_;
};

Direction sideOf(const BoundEdge& e, uint32_t vertex) {
  return e.from == vertex ? Direction::Out : Direction::In;
}

Direction opposite(Direction d) { return d == Direction::Out ? Direction::In : Direction::Out; }

class ComponentPlanner {
 public:
  ComponentPlanner(const BoundBgp& bgp, const Catalog& catalog)
      : bgp_(&bgp), stats_(catalog), bound_(bgp.vertices.size(), false),
        predicateBound_(bgp.predicateVariables.size(), false) {}

  // Without a sample, the statistics choose the seed and each next vertex,
  // and estimate their rows. With one, the statistics' seed and, where its
  // plan makes many rows, a few more seeds are tried (below); from each, the next vertex is always the one whose step the sample's walks
  // estimate to make the fewest rows, and the sample takes that step; the
  // plan kept is the one with the fewest estimated rows over all its steps
  // (C_out). Where walks cannot go on (a step binds a predicate variable,
  // or no walk survived), the statistics take over.
  ComponentPlan plan(const std::vector<uint32_t>& component, const std::optional<WalkSample>& sample) {
    if (!sample) return greedyFrom(component, std::nullopt, std::nullopt);
    std::pair<ComponentPlanner, ComponentPlan> best{*this, {}};
    best.second = best.first.greedyFrom(component, std::nullopt, sample);
    if (rowsOverSteps(best.second) >= kSeedSearchAbove) {
      for (uint32_t seed : seedCandidates(component, *sample)) {
        ComponentPlanner trial = *this;
        ComponentPlan plan = trial.greedyFrom(component, seed, sample);
        if (rowsOverSteps(plan) < rowsOverSteps(best.second)) best = {std::move(trial), std::move(plan)};
      }
    }
    *this = std::move(best.first);
    return std::move(best.second);
  }

 private:
  static constexpr size_t kSampledSeeds = 2;
  // Other seeds are tried only where the statistics' seed leads to a plan
  // whose steps the walks estimate to make at least this many rows: below,
  // the search would cost more than it can save.
  static constexpr double kSeedSearchAbove = 100000;

  // A plan's cost: the rows its steps make (C_out).
  static double rowsOverSteps(const ComponentPlan& plan) {
    double rows = 0;
    for (const PlanStep& step : plan.steps) rows += step.estimatedRows;
    return rows;
  }

  ComponentPlan greedyFrom(const std::vector<uint32_t>& component, std::optional<uint32_t> seed,
                           std::optional<WalkSample> sample) {
    ComponentPlan plan;
    double rows = 1;
    uint64_t survivors = 0;  // of the walks, after the last sampled step
    for (size_t n = 0; n < component.size(); ++n) {
      std::optional<StepEstimate> sampled;
      PlanStep step = n == 0 ? seedStep(seed.value_or(bestSeed(component)))
                      : sample ? sampledStep(component, *sample, sampled)
                               : statisticsStep(component);
      if (sample && n == 0 && WalkSample::canTake(step)) {
        sample->extend(step);
        sampled = sample->estimate();
      }
      rows = sampled ? rowsAfter(*sampled, rows, survivors) : rows * stepFactor(step);
      if (sampled) {
        step.estimateSource = sampled->survivors > 0 ? EstimateSource::Walks : EstimateSource::NoSurvivor;
        step.estimateError = sampled->relativeError;
      }
      if (!sampled || sampled->survivors == 0) sample.reset();
      survivors = sampled ? sampled->survivors : 0;
      step.estimatedRows = rows;
      plan.steps.push_back(std::move(step));
    }
    return plan;
  }

  // The kSampledSeeds vertices other than the statistics' seed whose seed step and
  // best next step the walks estimate to make the fewest rows (a look two
  // steps ahead, which sees joins that are rarer than their parts).
  std::vector<uint32_t> seedCandidates(const std::vector<uint32_t>& component, const WalkSample& sample) const {
    std::vector<std::pair<double, uint32_t>> lookahead;
    for (uint32_t v : component) {
      ComponentPlanner trial = *this;
      const PlanStep seed = trial.seedStep(v);
      if (!WalkSample::canTake(seed)) continue;
      WalkSample seeded = sample;
      seeded.extend(seed);
      double rows = seeded.estimate().rows;
      if (component.size() > 1 && rows > 0) {
        std::optional<StepEstimate> next;
        trial.sampledStep(component, seeded, next);
        if (next) rows = next->rows;
      }
      lookahead.emplace_back(rows, v);
    }
    std::sort(lookahead.begin(), lookahead.end());
    std::vector<uint32_t> seeds;
    for (size_t i = 0; i < lookahead.size() && seeds.size() < kSampledSeeds; ++i) {
      if (lookahead[i].second != bestSeed(component)) seeds.push_back(lookahead[i].second);
    }
    return seeds;
  }

  // The walks' estimate; where none survived a step that some entered, the
  // step passes fewer than one of them: half a walk's share of the rows
  // before it (the statistics know nothing better about such a step).
  static double rowsAfter(const StepEstimate& sampled, double rowsBefore, uint64_t survivorsBefore) {
    if (sampled.survivors > 0 || survivorsBefore == 0) return sampled.rows;
    return rowsBefore * 0.5 / static_cast<double>(survivorsBefore);
  }

  bool touches(const BoundEdge& e, uint32_t v) const { return e.from == v || e.to == v; }
  uint32_t otherEnd(const BoundEdge& e, uint32_t v) const { return e.from == v ? e.to : e.from; }
  bool predicateKnown(const BoundEdge& e) const {
    return !e.predicateIsVariable || predicateBound_[e.predicate];
  }

  double seedCandidates(uint32_t v) const {
    if (!bgp_->vertices[v].isVariable) return 1;
    double best = stats_.vertexCount();
    for (const auto& e : bgp_->edges) {
      if (touches(e, v) && !e.predicateIsVariable) best = std::min(best, stats_.keys(e, sideOf(e, v)));
    }
    return best;
  }

  uint32_t degree(uint32_t v) const {
    return static_cast<uint32_t>(std::count_if(bgp_->edges.begin(), bgp_->edges.end(),
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
    for (uint32_t i = 0; i < bgp_->edges.size(); ++i) {
      const auto& e = bgp_->edges[i];
      if (!touches(e, v) || otherEnd(e, v) == v || !bound_[otherEnd(e, v)]) continue;
      double fanout = stats_.fanout(e, sideOf(e, otherEnd(e, v))) * (predicateKnown(e) ? 1 : 4);
      if (fanout < bestFanout) bestFanout = fanout, best = i;
    }
    return best;
  }

  // The statistics' preference for binding v next: the fanout of its
  // cheapest driver per edge that connects it (constants first).
  double adjacencyScore(uint32_t v, uint32_t driver) const {
    const auto& e = bgp_->edges[driver];
    const double fanout = bgp_->vertices[v].isVariable ? stats_.fanout(e, sideOf(e, otherEnd(e, v))) : 0;
    return fanout / static_cast<double>(connectingEdges(v));
  }

  std::optional<uint32_t> bestAdjacent(const std::vector<uint32_t>& component) const {
    std::optional<uint32_t> best;
    double bestScore = std::numeric_limits<double>::infinity();
    for (uint32_t v : component) {
      if (bound_[v]) continue;
      auto driver = cheapestDriver(v);
      if (!driver) continue;
      const double score = adjacencyScore(v, *driver);
      if (score < bestScore) bestScore = score, best = v;
    }
    return best;
  }

  PlanStep statisticsStep(const std::vector<uint32_t>& component) {
    auto adjacent = bestAdjacent(component);
    return adjacent ? extendStep(*adjacent) : seedStep(bestSeed(component));
  }

  // Tries every vertex adjacent to the bound ones on a copy of this planner
  // and of the sample, and keeps the step whose walks estimate the fewest
  // rows (ties: the statistics' preference). The sample's copies share its
  // random state, so candidates are compared on the same random numbers.
  PlanStep sampledStep(const std::vector<uint32_t>& component, WalkSample& sample,
                       std::optional<StepEstimate>& estimate) {
    struct Trial {
      ComponentPlanner planner;
      PlanStep step;
      WalkSample sample;
      StepEstimate estimate;
      double score;
    };
    std::optional<Trial> best;
    for (uint32_t v : component) {
      if (bound_[v]) continue;
      auto driver = cheapestDriver(v);
      if (!driver) continue;
      Trial trial{*this, {}, sample, {}, adjacencyScore(v, *driver)};
      trial.step = trial.planner.extendStep(v);
      if (!WalkSample::canTake(trial.step)) continue;
      trial.sample.extend(trial.step);
      trial.estimate = trial.sample.estimate();
      if (!best || std::pair(trial.estimate.rows, trial.score) < std::pair(best->estimate.rows, best->score)) {
        best = std::move(trial);
      }
    }
    if (!best) return statisticsStep(component);
    *this = std::move(best->planner);
    sample = std::move(best->sample);
    estimate = best->estimate;
    return std::move(best->step);
  }

  uint32_t connectingEdges(uint32_t v) const {
    uint32_t n = 0;
    for (const auto& e : bgp_->edges) n += touches(e, v) && bound_[otherEnd(e, v)];
    return std::max(n, 1u);
  }

  EdgeUse use(uint32_t edge, uint32_t boundVertex) {
    const auto& e = bgp_->edges[edge];
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
    if (bgp_->vertices[v].isVariable) {
      step.source = CandidateSource::Neighbours;
      step.driver = use(driver, otherEnd(bgp_->edges[driver], v));
    }
    finishStep(step, step.source == CandidateSource::Neighbours ? std::optional(driver) : std::nullopt);
    return step;
  }

  PlanStep seedStep(uint32_t v) {
    PlanStep step;
    step.vertex = v;
    if (bgp_->vertices[v].isVariable) step.source = CandidateSource::AllVertices;
    double best = std::numeric_limits<double>::infinity();
    for (uint32_t i = 0; bgp_->vertices[v].isVariable && i < bgp_->edges.size(); ++i) {
      const auto& e = bgp_->edges[i];
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

  double stepFactor(const PlanStep& step) const {
    double factor = 1;
    switch (step.source) {
      case CandidateSource::Constant: factor = 1; break;
      case CandidateSource::AllVertices: factor = stats_.vertexCount(); break;
      case CandidateSource::PredicateKeys: factor = stats_.keys(bgp_->edges[step.driver.edge], step.driver.direction); break;
      case CandidateSource::Neighbours: factor = stats_.fanout(bgp_->edges[step.driver.edge], step.driver.direction); break;
    }
    for (const auto& check : step.checks) {
      const auto& e = bgp_->edges[check.edge];
      factor *= std::min(1.0, stats_.fanout(e, check.direction) / stats_.keys(e, opposite(check.direction)));
    }
    return factor;
  }

  const BoundBgp* bgp_;
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
    for (const auto& component : bgp.components) plan.components.push_back(planner.plan(component, std::nullopt));
    return plan;
  }
};

class SamplingOrderer final : public JoinOrderer {
 public:
  SamplingOrderer(const GraphStore& store, const WalkOptions& walks) : store_(store), walks_(walks) {}

  BgpPlan plan(const BoundBgp& bgp, const Catalog& catalog) const override {
    BgpPlan plan;
    ComponentPlanner planner(bgp, catalog);
    for (const auto& component : bgp.components) {
      plan.components.push_back(planner.plan(component, WalkSample(bgp, store_, walks_)));
    }
    return plan;
  }

 private:
  const GraphStore& store_;
  WalkOptions walks_;
};

}  // namespace

std::unique_ptr<JoinOrderer> makeStatisticsOrderer() { return std::make_unique<StatisticsOrderer>(); }

std::unique_ptr<JoinOrderer> makeSamplingOrderer(const GraphStore& store, const WalkOptions& walks) {
  return std::make_unique<SamplingOrderer>(store, walks);
}

}  // namespace gsparql::engine
