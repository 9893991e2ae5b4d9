// The cost model's fit (engine/optimizer/cost_model.h) and the dynamic
// programming over connected vertex sets (engine/optimizer/plan_enumerator.h)
// against a brute force over every order of a component's vertices.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "engine/bgp/executor.h"
#include "engine/cpu/cpu_executor.h"
#include "engine/optimizer/cost_model.h"
#include "engine/optimizer/join_orderer.h"
#include "engine/optimizer/plan_enumerator.h"
#include "engine/optimizer/step_builder.h"
#include "engine/optimizer/sub_pattern_plan.h"
#include "engine/optimizer/walk_estimator.h"
#include "engine/physical/bgp_leaf.h"
#include "engine/query/query_runner.h"
#include "gsparql/database.h"
#include "parser/parse.h"
#include "storage/graph_store.h"
#include "support/random_bgp.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

engine::QueryOutcome runOnCpu(const GraphStore& store, const engine::JoinOrderer& orderer, const std::string& query) {
  const auto cpu = engine::makeCpuExecutor();
  return engine::runQuery(sparql::parseQuery(query), store, *cpu, orderer, {});
}

// The cheapest cost over every order in which steps can bind the
// component's vertices (each adjacent to one bound before, where any is),
// on the statistics' estimates.
double bruteForceCheapest(const std::vector<uint32_t>& component, const engine::PartialPlan& p, const ExecutorCosts& costs) {
  if (p.plan.steps.size() == component.size()) return engine::componentCost(costs, p.plan);
  double best = std::numeric_limits<double>::infinity();
  const bool joined = std::any_of(component.begin(), component.end(),
                                  [&](uint32_t v) { return !p.builder.isBound(v) && p.builder.cheapestDriver(v); });
  for (uint32_t v : component) {
    const bool adjacent = p.builder.cheapestDriver(v).has_value();
    if (p.builder.isBound(v) || (joined && !adjacent)) continue;
    engine::PartialPlan next = p;
    next.add(adjacent ? next.builder.extendStep(v) : next.builder.seedStep(v));
    best = std::min(best, bruteForceCheapest(component, next, costs));
  }
  return best;
}

engine::CostSample sampleOf(const ExecutorCosts& truth, double bgps, double steps, double candidates, double rows) {
  const engine::PlanWork work{bgps, steps, candidates, rows};
  return {work, work.cost(truth)};
}

}  // namespace

TEST_CASE("the cost model's fit recovers the constants that made the times, and never goes negative") {
  const ExecutorCosts truth{.perBgp = 40, .perStep = 12, .perCandidate = 0.003, .perRow = 0.05};
  std::mt19937 random(7);
  std::uniform_real_distribution<double> steps(1, 10), rows(0, 1e6);
  std::vector<engine::CostSample> samples;
  for (int i = 0; i < 50; ++i) samples.push_back(sampleOf(truth, 1, std::round(steps(random)), 3 * rows(random), rows(random)));
  const ExecutorCosts fitted = engine::fitCosts(samples);
  CHECK(fitted.perBgp == doctest::Approx(truth.perBgp).epsilon(1e-6));
  CHECK(fitted.perStep == doctest::Approx(truth.perStep).epsilon(1e-6));
  CHECK(fitted.perCandidate == doctest::Approx(truth.perCandidate).epsilon(1e-6));
  CHECK(fitted.perRow == doctest::Approx(truth.perRow).epsilon(1e-6));

  // Times that fall as rows grow would need a negative price per row: the
  // fit keeps it at 0 and explains the times with the others.
  std::vector<engine::CostSample> falling{{{1, 1, 0, 0}, 100}, {{1, 1, 0, 1000}, 90}, {{1, 1, 0, 2000}, 80}};
  const ExecutorCosts clamped = engine::fitCosts(falling);
  CHECK(clamped.perRow == 0);
  CHECK(clamped.perBgp + clamped.perStep == doctest::Approx(88.52).epsilon(0.001));  // sum(1/t) / sum(1/t^2)
  CHECK_THROWS_AS(engine::fitCosts({}), std::invalid_argument);
  CHECK_THROWS_AS(engine::fitCosts({{{1, 1, 0, 0}, 0}}), std::invalid_argument);
}

namespace {

// The dynamic programming against the brute force on random BGPs, under
// `costs`, on the statistics' estimates (no walks: they depend on the order
// alone, so the cheapest cost is well defined). Counts the components
// compared, those it found the cheapest order of, and those cheaper than the
// statistics' greedy order; checks that none is more than `within` off.
struct EnumerationCounts {
  int compared = 0, cheapest = 0, cheaperThanGreedy = 0;
};

EnumerationCounts enumerateAgainstBruteForce(const ExecutorCosts& costs, double within) {
  std::mt19937 random(20261124);
  EnumerationCounts counts;
  for (int i = 0; i < scaledCases(200); ++i) {
    RandomCase c = randomCase(random);
    TempDir dir;
    GraphStore store(loadGraph(dir.path(), c.graph));
    CAPTURE(c.query);
    const auto outcome = runOnCpu(store, *engine::makeStatisticsOrderer(), c.query);
    const engine::BgpLeaf* leaf = engine::firstBgpLeaf(*outcome.plan);
    if (leaf == nullptr || leaf->bgp().hasAbsentConstant) continue;  // such a BGP is never planned
    const engine::BoundBgp& bgp = leaf->bgp();
    for (size_t k = 0; k < bgp.components.size(); ++k) {
      const auto& component = bgp.components[k];
      const engine::StepBuilder start(bgp, store.catalog());
      const auto enumerated = engine::cheapestPlan(component, start, std::nullopt, costs);
      REQUIRE(enumerated.has_value());
      CHECK(enumerated->plan.steps.size() == component.size());
      const double found = engine::componentCost(costs, enumerated->plan);
      const double best = bruteForceCheapest(component, {start, engine::PrefixEstimate({}), {}}, costs);
      CHECK(found >= best * (1 - 1e-9));
      CHECK(found <= best * within);
      ++counts.compared;
      counts.cheapest += found <= best * (1 + 1e-9);
      counts.cheaperThanGreedy += found < engine::componentCost(costs, leaf->plan().components[k]) * 0.999;
    }
  }
  INFO("components " << counts.compared << ", the cheapest " << counts.cheapest
                      << ", cheaper than the statistics' greedy order " << counts.cheaperThanGreedy);
  CHECK(counts.compared >= scaledCases(200) * 2 / 5);  // BGPs with an absent constant are never planned
  CHECK(counts.cheaperThanGreedy > 0);
  return counts;
}

}  // namespace

TEST_CASE("the connected sets of a component are counted as a search of each subset finds them") {
  const auto bgpOf = [](size_t n, const std::vector<std::pair<uint32_t, uint32_t>>& edges) {
    engine::BoundBgp bgp;
    bgp.vertices.resize(n);
    for (const auto& [from, to] : edges) bgp.edges.push_back({.from = from, .to = to});
    return bgp;
  };
  const auto all = [](size_t n) {
    std::vector<uint32_t> component(n);
    for (uint32_t i = 0; i < n; ++i) component[i] = i;
    return component;
  };
  CHECK(engine::connectedSets(bgpOf(4, {{0, 1}, {1, 2}, {2, 3}}), all(4)) == 10);      // a path: 4 + 3 + 2 + 1
  CHECK(engine::connectedSets(bgpOf(4, {{0, 1}, {0, 2}, {0, 3}}), all(4)) == 11);      // a star: 3 leaves, 8 with the centre
  CHECK(engine::connectedSets(bgpOf(3, {{0, 1}, {1, 2}, {2, 0}, {0, 0}}), all(3)) == 7);  // a triangle (and a loop)
  CHECK(engine::connectedSets(bgpOf(5, {{3, 1}, {1, 4}}), {1, 3, 4}) == 6);            // a component of a larger BGP
  // Random graphs of up to 12 vertices, against a depth-first search from
  // each subset's first vertex.
  std::mt19937_64 random(7);
  for (int round = 0; round < 40; ++round) {
    const size_t n = 1 + random() % engine::kMaxEnumeratedVertices;
    std::vector<std::pair<uint32_t, uint32_t>> edges;
    for (size_t e = 0; e < n + random() % (2 * n); ++e) edges.emplace_back(random() % n, random() % n);
    size_t expected = 0;
    for (size_t set = 1; set < (size_t{1} << n); ++set) {
      size_t reached = set & (~set + 1), frontier = reached;
      while (frontier != 0) {
        size_t next = 0;
        for (const auto& [a, b] : edges) {
          if ((frontier >> a & 1) && (set >> b & 1)) next |= size_t{1} << b;
          if ((frontier >> b & 1) && (set >> a & 1)) next |= size_t{1} << a;
        }
        frontier = next & ~reached;
        reached |= next;
      }
      expected += reached == set ? 1 : 0;
    }
    CAPTURE(n);
    CHECK(engine::connectedSets(bgpOf(n, edges), all(n)) == expected);
  }
}

TEST_CASE("dynamic programming finds the cheapest order of nearly every component, as a brute force over all orders does") {
  // The programming keeps one plan per set of vertices: it is exact where a
  // set's estimated rows do not depend on the order that bound it, which
  // walks give in expectation but the statistics not always (a set's rows
  // are the product of the factors of the edges its steps took as drivers).
  SUBCASE("prices of steps, candidates and rows: every way into a set estimated") {
    const EnumerationCounts counts =
        enumerateAgainstBruteForce({.perBgp = 0, .perStep = 5, .perCandidate = 0.5, .perRow = 2}, 1.1);
    CHECK(counts.cheapest >= counts.compared * 95 / 100);
  }
  SUBCASE("prices of steps and rows alone: a set entered from its cheapest predecessor, estimated once") {
    const EnumerationCounts counts = enumerateAgainstBruteForce({.perBgp = 0, .perStep = 5, .perRow = 2}, 1.25);
    CHECK(counts.cheapest >= counts.compared * 90 / 100);
  }
}

TEST_CASE("plans of the cost optimizer give the rows a brute force gives, within and beyond the enumerator's reach") {
  // Prices so high that every component small enough is enumerated.
  const ExecutorCosts expensive{.perBgp = 0, .perStep = 1000, .perCandidate = 1, .perRow = 1};
  std::mt19937 random(11);
  for (int i = 0; i < scaledCases(100); ++i) {
    RandomCase c = randomCase(random);
    TempDir dir;
    GraphStore store(loadGraph(dir.path(), c.graph));
    CAPTURE(c.query);
    const auto outcome = runOnCpu(store, *engine::makeCostOrderer(store, {.walks = 64, .seed = 1}, expensive), c.query);
    CHECK(outcome.rows.rows == bruteForce(c, c.variables, false).size());
  }
  // A chain of 14 vertices: beyond kMaxEnumeratedVertices, planned greedily.
  TempDir dir;
  std::string nt;
  for (int i = 0; i < 60; ++i) {
    nt += "<http://e/n" + std::to_string(i) + "> <http://e/next> <http://e/n" + std::to_string(i + 1) + "> .\n";
  }
  writeFile(dir / "g.nt", nt);
  Database::load(dir / "db", {(dir / "g.nt").string()});
  GraphStore store(dir / "db");
  std::string chain;
  for (int i = 0; i < 13; ++i) chain += "?v" + std::to_string(i) + " <http://e/next> ?v" + std::to_string(i + 1) + " . ";
  const auto outcome =
      runOnCpu(store, *engine::makeCostOrderer(store, {.walks = 128, .seed = 1}, expensive), "SELECT * { " + chain + "}");
  CHECK(outcome.rows.rows == 48);  // paths from n0 ... n47

  // A costly plan's estimates are taken again by the estimator's walks:
  // 4,096 on the CPU.
  auto estimator = engine::makeCpuWalkEstimator();
  const auto refined = runOnCpu(store, *engine::makeCostOrderer(store, {.walks = 128, .seed = 1}, expensive, estimator.get()),
                                "SELECT * { " + chain + "}");
  CHECK(refined.rows.rows == 48);
  const auto& steps = engine::firstBgpLeaf(*refined.plan)->plan().components.at(0).steps;
  REQUIRE(steps.size() == 14);
  for (const engine::PlanStep& step : steps) {
    CHECK(step.estimateBy == "4096 walks on the cpu");
    CHECK(step.estimateSource == engine::EstimateSource::Walks);
  }
  CHECK(steps.back().estimatedRows == doctest::Approx(48).epsilon(0.3));
}

TEST_CASE("a plan from every connected sub-pattern's estimates, requested in one batch, takes a branch's small fan-out last") {
  TempDir dir;  // branchFanOutTriples: the greedy binds ?a first, fewest rows over the steps ?b, ?z, ?a
  writeFile(dir / "data.nt", branchFanOutTriples());
  Database::load(dir / "db", {(dir / "data.nt").string()});
  GraphStore store(dir / "db");
  const auto outcome = runOnCpu(store, *engine::makeStatisticsOrderer(), kBranchFanOutQuery);
  REQUIRE(outcome.rows.rows == 5000);
  const engine::BoundBgp& bgp = engine::firstBgpLeaf(*outcome.plan)->bgp();
  const auto orderOf = [&](const engine::ComponentPlan& plan) {
    std::string order;
    for (const auto& step : plan.steps) order += bgp.vertices[step.vertex].isVariable ? bgp.vertices[step.vertex].name : "c";
    return order;
  };
  CHECK(orderOf(engine::firstBgpLeaf(*outcome.plan)->plan().components.at(0)).starts_with("ca"));  // the greedy's
  auto estimator = engine::makeCpuWalkEstimator();
  const std::optional<engine::PartialPlan> plan = engine::planFromSubPatterns(
      bgp.components.at(0), engine::StepBuilder(bgp, store.catalog()),
      engine::WalkSample(bgp, store, {.walks = 128, .seed = 1}, engine::WalkMode::Planner), bgp, store, *estimator, 1);
  REQUIRE(plan.has_value());
  CAPTURE(orderOf(plan->plan));
  CHECK(orderOf(plan->plan).ends_with("a"));  // <c>, ?b and ?z in an order of 100-1,000 rows a step
  CHECK(plan->plan.steps.back().estimatedRows == doctest::Approx(5000).epsilon(0.3));  // by the planner's sample
}
