// The leaves of a count (bgp/counted_leaves.h): decided once, by the planner,
// in the plan; the CPU executor counts exactly those, the cost model prices
// exactly those (tests/gpu/gpu_executor_test.cpp holds the GPU to the same).
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

#include "engine/bgp/counted_leaves.h"
#include "engine/cpu/cpu_executor.h"
#include "engine/optimizer/cost_model.h"
#include "engine/optimizer/join_orderer.h"
#include "engine/physical/bgp_leaf.h"
#include "engine/query/query_runner.h"
#include "gsparql/database.h"
#include "parser/parse.h"
#include "storage/graph_store.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

// ?a, then ?b from ?a, then ?c from ?b, over constant predicates.
struct Path {
  engine::BoundBgp bgp;
  engine::ComponentPlan plan;
  Path() {
    bgp.vertices.resize(3);
    bgp.edges.resize(2);
    for (uint32_t e : {0u, 1u}) {
      bgp.edges[e].from = e;
      bgp.edges[e].to = e + 1;
      bgp.edges[e].predicate = 7 + e;
    }
    plan.steps.resize(3);
    plan.steps[0].vertex = 0;
    plan.steps[0].source = engine::CandidateSource::PredicateKeys;
    for (uint32_t i : {1u, 2u}) {
      plan.steps[i].vertex = i;
      plan.steps[i].source = engine::CandidateSource::Neighbours;
      plan.steps[i].driver = {i - 1, i - 1, pcsr::Direction::Out, false};
    }
  }
};

// The plan of COUNT(*) over the pattern of `select` and what running it on the CPU executor counted.
struct Counted {
  engine::BgpPlan plan;
  size_t leavesCounted = 0;
};

Counted countOver(const GraphStore& store, const std::string& select, bool injective) {
  auto cpu = engine::makeCpuExecutor();
  auto orderer = engine::makeStatisticsOrderer();
  engine::QueryRequest options;
  options.run.injective = injective;
  const auto outcome = engine::runQuery(sparql::parseQuery(countingQuery(select)), store, *cpu,
                                        *orderer, options);
  const engine::BgpLeaf* leaf = engine::firstBgpLeaf(*outcome.plan);
  REQUIRE(leaf != nullptr);
  return {leaf->plan(), leaf->executionProfile().countedLeaves};
}

size_t leavesOf(const engine::BgpPlan& plan) {
  size_t leaves = 0;
  for (const auto& component : plan.components) leaves += component.countedLeaves();
  return leaves;
}

}  // namespace

TEST_CASE("a count multiplies only final steps over constant predicates that read vertices bound before them") {
  Path path;  // only ?c is a leaf: ?b's step reads ?a, bound before it, but ?c's reads ?b
  CHECK(engine::countedLeavesFrom(path.plan, path.bgp) == 2);
  CHECK(engine::readsVertex(path.plan.steps[2], 1));
  CHECK_FALSE(engine::readsVertex(path.plan.steps[2], 0));
  CHECK(engine::countableStep(path.plan.steps[1], path.bgp));
  CHECK_FALSE(engine::countableStep(path.plan.steps[0], path.bgp));  // keys of a predicate: no row to extend
  Path star;  // ?b and ?c both from ?a: both leaves
  star.plan.steps[2].driver.boundVertex = 0;
  star.bgp.edges[1].from = 0;
  CHECK(engine::countedLeavesFrom(star.plan, star.bgp) == 1);
  SUBCASE("a predicate variable bound by the step") {
    star.plan.steps[2].driver.bindsPredicate = true;
    star.bgp.edges[1].predicateIsVariable = true;
    CHECK(engine::countedLeavesFrom(star.plan, star.bgp) == 3);
  }
  SUBCASE("a predicate variable bound before: the GPU cannot count it") {
    star.bgp.edges[1].predicateIsVariable = true;
    CHECK(engine::countedLeavesFrom(star.plan, star.bgp) == 3);
  }
  SUBCASE("a self-loop check: the CPU cannot count it") {
    star.plan.steps[2].checks.push_back({1, 2, pcsr::Direction::Out, false});
    CHECK(engine::countedLeavesFrom(star.plan, star.bgp) == 3);
    CHECK_FALSE(engine::countableStep(star.plan.steps[2], star.bgp));
  }
  SUBCASE("a predicate compared with a vertex") {
    star.plan.steps[2].predicateVertexChecks.push_back({0, 2});
    CHECK(engine::countedLeavesFrom(star.plan, star.bgp) == 3);
  }
}

TEST_CASE("the leaves a count's plan marks are what the CPU executor counts and the cost model prices, "
          "under homomorphisms and injective matching") {
  TempDir dir;
  Database::load(dir / "db", {dataFile("watdiv/sf1.nt.zst")});
  GraphStore store(dir / "db");
  const ExecutorCosts costs{.perBgp = 0, .perStep = 1, .perCandidate = 1, .perRow = 1};
  size_t queriesWithLeaves = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dataFile("watdiv/sf1/queries"))) {
    const std::string select = readText(entry.path());
    CAPTURE(entry.path().filename().string());
    const Counted hom = countOver(store, select, false);
    const Counted iso = countOver(store, select, true);
    CHECK(hom.leavesCounted == leavesOf(hom.plan));
    CHECK(iso.leavesCounted == 0);
    CHECK(leavesOf(iso.plan) == 0);
    // The cost model prices as counted the leaves the executor counted (the
    // queries are connected: one component), and under injective matching none.
    REQUIRE(hom.plan.components.size() == 1);
    const engine::ComponentPlan& component = hom.plan.components[0];
    CHECK(engine::countCost(costs, hom.plan) ==
          doctest::Approx(engine::componentCountCost(costs, component, component.steps.size() - hom.leavesCounted)));
    CHECK(engine::countCost(costs, iso.plan) == doctest::Approx(engine::planCost(costs, iso.plan)));
    queriesWithLeaves += hom.leavesCounted > 1;
  }
  CHECK(queriesWithLeaves > 50);  // stars' leaves: the check above is not about empty sets
}
