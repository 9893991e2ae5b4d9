#include "engine/optimizer/join_orderer.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <optional>
#include <stdexcept>
#include <tuple>

#include "engine/bgp/counted_leaves.h"
#include "engine/optimizer/cost_model.h"
#include "engine/optimizer/plan_enumerator.h"
#include "engine/optimizer/prefix_estimate.h"
#include "engine/optimizer/sub_pattern_plan.h"

namespace gsparql::engine {
namespace {

// The vertices of `component` that a count multiplies where its plan binds
// them last: variables with one edge in the BGP, over a known predicate, that
// name no predicate. Where all are (a single edge), the first stays.
std::vector<uint32_t> leavesOf(const BoundBgp& bgp, const std::vector<uint32_t>& component) {
  std::vector<uint32_t> edges(bgp.vertices.size());
  std::vector<bool> joinedByPredicate(bgp.vertices.size());
  for (const BoundEdge& e : bgp.edges) {
    ++edges[e.from];
    ++edges[e.to];
    if (e.predicateIsVariable) joinedByPredicate[e.from] = joinedByPredicate[e.to] = true;
    if (e.predicateVertex) joinedByPredicate[*e.predicateVertex] = true;
  }
  std::vector<uint32_t> leaves;
  for (uint32_t v : component) {
    const BoundVertex& vertex = bgp.vertices[v];
    if (vertex.isVariable && !vertex.isConstantSet() && edges[v] == 1 && !joinedByPredicate[v]) leaves.push_back(v);
  }
  if (leaves.size() == component.size()) leaves.erase(leaves.begin());
  return leaves;
}

// The centre of `vertices` where every edge among them joins it to a vertex
// of no other edge, over a known predicate (a star: WatDiv's S and C3).
std::optional<uint32_t> starCentre(const BoundBgp& bgp, const std::vector<uint32_t>& vertices) {
  const auto in = [&](uint32_t v) { return std::find(vertices.begin(), vertices.end(), v) != vertices.end(); };
  std::optional<uint32_t> centre;
  std::vector<uint32_t> degree(bgp.vertices.size());
  size_t edges = 0;
  for (const BoundEdge& e : bgp.edges) {
    if (!in(e.from) || !in(e.to)) continue;
    if (e.predicateIsVariable || e.from == e.to) return std::nullopt;
    ++edges;
    if (++degree[e.from] > 1) centre = e.from;
    if (++degree[e.to] > 1) centre = e.to;
  }
  if (edges < 2 || !centre) return std::nullopt;
  const bool star = std::all_of(bgp.edges.begin(), bgp.edges.end(), [&](const BoundEdge& e) {
    if (!in(e.from) || !in(e.to)) return true;
    return (e.from == *centre) != (e.to == *centre) && degree[e.from == *centre ? e.to : e.from] == 1;
  });
  return star ? centre : std::nullopt;
}

// A count's plan of `component`: the vertices other than its leaves planned
// by `planCore`, then the leaves, which the count multiplies; nullopt where
// it has no leaves.
template <typename PlanCore>
std::optional<PartialPlan> planLeavesLast(const BoundBgp& bgp, const std::vector<uint32_t>& component,
                                          PlanCore planCore) {
  const std::vector<uint32_t> leaves = leavesOf(bgp, component);
  if (leaves.empty()) return std::nullopt;
  std::vector<uint32_t> core;
  std::copy_if(component.begin(), component.end(), std::back_inserter(core),
               [&](uint32_t v) { return std::find(leaves.begin(), leaves.end(), v) == leaves.end(); });
  PartialPlan p = planCore(core);
  for (uint32_t leaf : leaves) p.add(p.builder.extendStep(leaf));
  return p;
}

// Plans each component from the vertices and predicates of the ones before
// bound, by `planComponent(component, start)`.
template <typename PlanComponent>
BgpPlan planComponents(const BoundBgp& bgp, const Catalog& catalog, PlanComponent planComponent) {
  BgpPlan plan;
  StepBuilder builder(bgp, catalog);
  for (const auto& component : bgp.components) {
    PartialPlan p = planComponent(component, builder);
    builder = std::move(p.builder);
    plan.components.push_back(std::move(p.plan));
  }
  return plan;
}

class StatisticsOrderer final : public JoinOrderer {
  BgpPlan planFor(const BoundBgp& bgp, const Catalog& catalog, PlanUse /*use*/) const override {
    return planComponents(bgp, catalog, [](const std::vector<uint32_t>& component, const StepBuilder& start) {
      return greedyPlan(component, start, std::nullopt, false);
    });
  }
};

// The greedy plan; where it takes long enough on the executor that runs it
// to pay for a search (searchPays), also the plan of the dynamic programming
// (plan_enumerator.h) that makes the fewest rows over its steps (C_out, the
// greedy's own measure), kept where it makes clearly fewer. The greedy takes
// the step that makes the fewest rows now, which misses where a branch's
// small fan-out is better taken last: from a
// constant with k friends and G users of its gender, each with one e-mail,
// it multiplies the friends first and makes k*G rows twice, where the
// gender's branch first makes them once (the random BGPs of
// benchmarks/results/plan-quality-dp-dev-2core: up to 6.9x the best order).
// A star, whose leaves the greedy orders as well as any search, is planned
// by the greedy alone (planStar). A count also plans the component's leaves last (planLeavesLast; the
// reordering planForCount does afterwards cannot move a seed), and keeps
// that plan where counting by it costs clearly less: a path's two ends
// multiplied after its middle, rather than one end made row by row.
class SamplingOrderer final : public JoinOrderer {
 public:
  SamplingOrderer(const GraphStore& store, const WalkOptions& walks, std::vector<ExecutorCosts> executors)
      : store_(store), walks_(walks), executors_(std::move(executors)) {
    if (executors_.empty()) throw std::invalid_argument("the sampling orderer needs the costs of an executor");
  }

 private:
  BgpPlan planFor(const BoundBgp& bgp, const Catalog& catalog, PlanUse use) const override {
    return planComponents(bgp, catalog, [&](const std::vector<uint32_t>& component, const StepBuilder& start) {
      const WalkSample sample(bgp, store_, walks_, WalkMode::Planner);
      const auto fewestRows = [&](const std::vector<uint32_t>& vertices) { return plan(vertices, bgp, start, sample); };
      PartialPlan best = fewestRows(component);
      if (use != PlanUse::Count) return best;
      std::optional<PartialPlan> counted = planLeavesLast(bgp, component, fewestRows);
      const auto work = [&](const PartialPlan& p) {
        return componentCountCost(kRowsAndLookups, p.plan, countedLeavesFrom(p.plan, bgp));
      };
      return counted && work(*counted) * kBetterBy < work(best) ? std::move(*counted) : best;
    });
  }

  // A star's rows over the steps are fewest where its leaves follow their
  // first by fan-out, each next the one that makes the fewest rows, which
  // the greedy does (exactly so where the leaves are independent, as IKKBZ
  // orders a star by rank); what is left to choose is the first: the
  // statistics' seed (a leaf with few values, or the centre) or, where that
  // plan makes so many rows that other seeds are worth trying, the centre.
  // Other seeds and the enumeration of its 2^leaves sets cost more than they
  // find: WatDiv's C3 (six leaves) planned 1.2-2.0 ms with them on the H200
  // machine, and their plan ran 0.07 ms faster on the GPU executor and
  // 1.3 ms on the CPU's (benchmarks/results/h200-2026-11-28-planning-cost).
  // Where the statistics' seed is a constant leaf whose fan-out makes most of
  // the plan's rows, the variable leaf with the fewest candidates of its own
  // is tried too (worthSeedingInstead: the 64 literals nearest a point, where
  // the constant is the class of 135,233 cities; benchmarks/results/geo-postgis-*).
  static PartialPlan planStar(const BoundBgp& bgp, const std::vector<uint32_t>& vertices, uint32_t centre,
                              const StepBuilder& start, const WalkSample& sample) {
    PartialPlan best = greedyPlan(vertices, start, sample, false);
    if (best.plan.steps.front().vertex == centre) return best;
    std::vector<uint32_t> seeds;
    if (rowsOverSteps(best.plan) >= kSeedSearchAbove) seeds.push_back(centre);
    const uint32_t leaf = rarestVariableLeaf(bgp, vertices, centre, start);
    if (leaf != centre && worthSeedingInstead(best.plan, start.seedCandidates(leaf))) seeds.push_back(leaf);
    for (uint32_t seed : seeds) {
      PartialPlan trial = greedyPlanFrom(vertices, seed, start, sample);
      if (rowsOverSteps(trial.plan) < rowsOverSteps(best.plan)) best = std::move(trial);
    }
    return best;
  }

  // The unbound variable leaf of a star with the fewest candidates of its
  // own (the centre where there is none).
  static uint32_t rarestVariableLeaf(const BoundBgp& bgp, const std::vector<uint32_t>& vertices, uint32_t centre,
                                     const StepBuilder& start) {
    uint32_t rarest = centre;
    double fewest = std::numeric_limits<double>::infinity();
    for (uint32_t v : vertices) {
      if (v == centre || start.isBound(v) || !bgp.vertices[v].isVariable) continue;
      if (const double candidates = start.seedCandidates(v); candidates < fewest) fewest = candidates, rarest = v;
    }
    return rarest;
  }

  // Where the component is small enough to enumerate, the enumeration
  // searches seeds in the greedy's stead, and where it does not pay, no
  // search does.
  PartialPlan plan(const std::vector<uint32_t>& vertices, const BoundBgp& bgp, const StepBuilder& start,
                   const WalkSample& sample) const {
    if (const auto centre = starCentre(bgp, vertices)) return planStar(bgp, vertices, *centre, start, sample);
    const bool enumerable = vertices.size() <= kMaxEnumeratedVertices;
    PartialPlan greedy = greedyPlan(vertices, start, sample, !enumerable);
    if (!enumerable || !searchPays(greedy.plan, bgp, vertices)) return greedy;
    // Only a plan that makes kBetterBy times fewer rows replaces the greedy one.
    std::optional<PartialPlan> enumerated =
        cheapestPlan(vertices, start, sample, kRowsMade, rowsOverSteps(greedy.plan) / kBetterBy);
    return enumerated ? std::move(*enumerated) : greedy;
  }

  // The search's plan replaces the greedy one only where it makes kBetterBy
  // times fewer rows: where it does, it saves about a third of the greedy
  // plan's run or more. It pays where that is more than the search costs, an
  // estimate per connected set of the component's vertices. The run is the
  // component's steps on the executor that runs the BGP fastest (the
  // cheapest of those that may, by their calibrated constants, the BGP's
  // fixed cost included: it decides where --backend auto places a small BGP).
  bool searchPays(const ComponentPlan& greedy, const BoundBgp& bgp, const std::vector<uint32_t>& vertices) const {
    double fastest = std::numeric_limits<double>::infinity(), steps = 0;  // the BGP's run there, and its steps'
    for (const ExecutorCosts& costs : executors_) {
      const double run = componentCost(costs, greedy);
      if (costs.perBgp + run < fastest) {
        fastest = costs.perBgp + run;
        steps = run;
      }
    }
    const double leastSaving = steps * (1 - 1 / kBetterBy);
    // Every vertex is a connected set: no need to count them where that many cost more.
    return leastSaving >= kSearchPerSet * static_cast<double>(vertices.size()) &&
           leastSaving >= kSearchPerSet * static_cast<double>(connectedSets(bgp, vertices));
  }

  // Microseconds the search takes per connected set, the walks' estimate of
  // the set's rows, planned between other queries (cold caches): WatDiv's C2
  // (11 vertices, 150 sets) planned 1.8 ms more with the search than without
  // on the H200 machine's host (2.1 against 0.27 ms; its CPU executor then
  // ran it in 0.9 ms instead of 2.1), 1.0-1.2 ms more on the 2-core machine
  // (0.28 ms more planned again and again: the walks' data in cache;
  // benchmarks/results/h200-2026-11-28-planning-by-executor/search-or-not-c2). A 6-vertex
  // path (21 sets) is searched where its greedy plan takes 0.63 ms or more,
  // as before at 20,000 rows on the CPU executor; C2 at 4.5 ms.
  static constexpr double kSearchPerSet = 10;
  static constexpr ExecutorCosts kRowsMade{.perRow = 1};
  // A count's work: the rows made and the candidates read before the
  // leaves, and a lookup per row for each leaf.
  static constexpr ExecutorCosts kRowsAndLookups{.perCandidate = 1, .perRow = 1};
  // The two plans' later steps are estimated by different walks (each
  // +-20-30%): a smaller gain is their noise. A 4-edge path's count took the
  // other plan, estimated at 1.48x fewer rows, and ran 1.5x slower; a random
  // BGP's, estimated at 2.7x fewer, ran 4-6x faster
  // (benchmarks/results/planner-evidence-dev-2core).
  static constexpr double kBetterBy = 1.5;

  const GraphStore& store_;
  WalkOptions walks_;
  std::vector<ExecutorCosts> executors_;  // those that may run the BGPs
};

// The sampling orderer's plan first; where the cost model prices it at
// kEnumerateAbove or more and the component is small enough, the cheapest
// plan of the dynamic programming (plan_enumerator.h) too, and with a
// refiner, the plan of least rows over its steps by the refiner's estimates
// of every connected sub-pattern, requested in one batch (sub_pattern_plan.h). Where the
// cheaper of the two is that costly, the estimator's many walks (on the
// GPU, gSWORD) take the estimates of both again, in one batch, and the
// plan cheaper by them is kept: they decide the placement and what EXPLAIN
// shows. A count prices each plan as counted (componentCountCost), with the
// greedy plan that binds the leaves last among the candidates.
class CostOrderer final : public JoinOrderer {
 public:
  CostOrderer(const GraphStore& store, const WalkOptions& walks, const ExecutorCosts& costs, WalkEstimator* refiner)
      : store_(store), walks_(walks), costs_(costs), refiner_(refiner) {}

 private:
  BgpPlan planFor(const BoundBgp& bgp, const Catalog& catalog, PlanUse use) const override {
    const auto cost = [&](const PartialPlan& p) {
      return use == PlanUse::Count ? componentCountCost(costs_, p.plan, countedLeavesFrom(p.plan, bgp))
                                   : componentCost(costs_, p.plan);
    };
    return planComponents(bgp, catalog, [&](const std::vector<uint32_t>& component, const StepBuilder& start) {
      const WalkSample sample(bgp, store_, walks_, WalkMode::Planner);
      const auto greedy = [&](const std::vector<uint32_t>& vertices) {
        return greedyPlan(vertices, start, sample, true);
      };
      std::vector<PartialPlan> candidates{greedy(component)};
      if (use == PlanUse::Count) {
        std::optional<PartialPlan> counted = planLeavesLast(bgp, component, greedy);
        if (counted) candidates.push_back(std::move(*counted));
      }
      if (cost(cheapestOf(candidates, cost)) < kEnumerateAbove) return std::move(cheapestOf(candidates, cost));
      if (component.size() <= kMaxEnumeratedVertices) {
        if (std::optional<PartialPlan> enumerated = cheapestPlan(component, start, sample, costs_)) {
          addIfNew(candidates, std::move(*enumerated));
        }
      }
      if (refiner_ != nullptr) {
        std::optional<PartialPlan> bySubPatterns =
            planFromSubPatterns(component, start, sample, bgp, store_, *refiner_, walks_.seed);
        if (bySubPatterns) addIfNew(candidates, std::move(*bySubPatterns));
      }
      if (refiner_ != nullptr && cost(cheapestOf(candidates, cost)) >= kRefineAbove) {
        std::vector<ComponentPlan*> plans;
        for (PartialPlan& candidate : candidates) plans.push_back(&candidate.plan);
        refiner_->refine(plans, bgp, store_, walks_.seed);
      }
      return std::move(cheapestOf(candidates, cost));
    });
  }

  // Microseconds of estimated cost: below, enumerating (or estimating
  // again) costs more planning time than it can save.
  static constexpr double kEnumerateAbove = 100;
  static constexpr double kRefineAbove = 1000;

  static std::vector<uint32_t> vertexOrder(const ComponentPlan& plan) {
    std::vector<uint32_t> order;
    for (const PlanStep& step : plan.steps) order.push_back(step.vertex);
    return order;
  }

  static void addIfNew(std::vector<PartialPlan>& candidates, PartialPlan plan) {
    const auto same = [&](const PartialPlan& c) { return vertexOrder(c.plan) == vertexOrder(plan.plan); };
    if (std::none_of(candidates.begin(), candidates.end(), same)) candidates.push_back(std::move(plan));
  }

  template <typename Cost>
  static PartialPlan& cheapestOf(std::vector<PartialPlan>& candidates, Cost cost) {
    return *std::min_element(candidates.begin(), candidates.end(),
                             [&](const PartialPlan& a, const PartialPlan& b) { return cost(a) < cost(b); });
  }

  const GraphStore& store_;
  WalkOptions walks_;
  ExecutorCosts costs_;
  WalkEstimator* refiner_;
};

}  // namespace

std::unique_ptr<JoinOrderer> makeStatisticsOrderer() { return std::make_unique<StatisticsOrderer>(); }

std::unique_ptr<JoinOrderer> makeSamplingOrderer(const GraphStore& store, const WalkOptions& walks,
                                                 std::vector<ExecutorCosts> executors) {
  return std::make_unique<SamplingOrderer>(store, walks, std::move(executors));
}

std::unique_ptr<JoinOrderer> makeCostOrderer(const GraphStore& store, const WalkOptions& walks,
                                             const ExecutorCosts& costs, WalkEstimator* refiner) {
  return std::make_unique<CostOrderer>(store, walks, costs, refiner);
}

}  // namespace gsparql::engine
