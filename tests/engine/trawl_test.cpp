// Trawling (engine/optimizer/trawl.h) against the exact rows of every join
// step, which the CPU executor's profile reports, and against the walks it
// stands in for where few of them survive.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "engine/bgp/executor.h"
#include "engine/cpu/cpu_executor.h"
#include "engine/optimizer/join_orderer.h"
#include "engine/optimizer/trawl.h"
#include "engine/optimizer/walk_estimator.h"
#include "engine/physical/bgp_leaf.h"
#include "engine/query/query_runner.h"
#include "gsparql/database.h"
#include "parser/parse.h"
#include "storage/graph_store.h"
#include "support/plans.h"
#include "support/random_bgp.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

// The query run by the CPU executor in the statistics' order: its first
// BGP's first component's plan and the rows each of its steps made.
struct Profiled {
  engine::QueryOutcome outcome;
  const engine::BgpLeaf* leaf = nullptr;
  std::vector<double> exactRows;  // the profile may stop early, where a step made no rows
};

Profiled profiled(const GraphStore& store, const std::string& query) {
  auto cpu = engine::makeCpuExecutor();
  Profiled p{engine::runQuery(sparql::parseQuery(query), store, *cpu, *engine::makeStatisticsOrderer(), {}),
             nullptr, {}};
  p.leaf = engine::firstBgpLeaf(*p.outcome.plan);
  if (p.leaf == nullptr || p.leaf->bgp().hasAbsentConstant) return p;
  for (const auto& step : p.leaf->executionProfile().steps) {
    if (step.component == 0) p.exactRows.push_back(static_cast<double>(step.actualRows));
  }
  return p;
}

constexpr uint32_t kUnbounded = std::numeric_limits<uint32_t>::max();

}  // namespace

TEST_CASE("trawling with no bounds counts every step exactly, with small ones it estimates them without bias") {
  std::mt19937 random(20261128);
  int steps = 0, withinThree = 0;
  for (int i = 0; i < scaledCases(150); ++i) {
    RandomCase c = randomCase(random);
    TempDir dir;
    GraphStore store(loadGraph(dir.path(), c.graph));
    CAPTURE(c.query);
    const Profiled p = profiled(store, c.query);
    if (p.leaf == nullptr || p.exactRows.empty()) continue;
    const engine::ComponentPlan& plan = p.leaf->plan().components[0];
    const auto all =
        engine::trawl(plan, p.leaf->bgp(), store, {.prefixes = 1, .frontier = kUnbounded, .perRow = kUnbounded});
    const auto some = engine::trawl(plan, p.leaf->bgp(), store,
                                    {.prefixes = 64, .frontier = 4, .perRow = 2, .seed = static_cast<uint64_t>(i) + 1});
    for (size_t s = 0; s < std::min(all.size(), p.exactRows.size()); ++s) {
      const double exact = p.exactRows[s];
      CAPTURE(s);
      CHECK(all[s].rows == exact);
      CHECK(all[s].relativeError == (exact > 0 ? 0 : std::numeric_limits<double>::infinity()));
      if (exact == 0) {
        CHECK(some[s].rows == 0);  // no row can be kept where none passes
        continue;
      }
      ++steps;
      const double error = std::abs(some[s].rows - exact) / exact;
      CHECK(error <= std::max(8 * some[s].relativeError, 1e-9));
      withinThree += error <= 3 * some[s].relativeError + 1e-9;
    }
  }
  INFO("steps " << steps << ", within 3 standard errors " << withinThree);
  CHECK(steps > scaledCases(150) / 2);  // 18 of the 30 cases under ASan
  CHECK(withinThree >= steps * 9 / 10);
}

TEST_CASE("where few walks survive, the estimator trawls: a rare cycle the walks miss is found, Alley's die less") {
  // 100 users x, each with 10 friends y, each with 10 pets z; each x owns
  // 20 pets, one of the 100 its friends have. ?x friend ?y . ?y pet ?z . ?x
  // owns ?z, bound x, y, z (z from y's pets, the fewer): 10,000 paths, 100
  // close the cycle. A walk closes it once in 100: 16 walks mostly none.
  TempDir dir;
  std::string nt;
  const auto iri = [](const std::string& kind, int i) { return "<http://e/" + kind + std::to_string(i) + ">"; };
  for (int x = 0; x < 100; ++x) {
    nt += iri("x", x) + " <http://e/owns> " + iri("z", x * 100) + " .\n";
    for (int w = 0; w < 19; ++w) nt += iri("x", x) + " <http://e/owns> " + iri("w", x * 19 + w) + " .\n";
    for (int y = 0; y < 10; ++y) {
      nt += iri("x", x) + " <http://e/friend> " + iri("y", x * 10 + y) + " .\n";
      for (int z = 0; z < 10; ++z) {
        nt += iri("y", x * 10 + y) + " <http://e/pet> " + iri("z", x * 100 + y * 10 + z) + " .\n";
      }
    }
  }
  writeFile(dir / "g.nt", nt);
  Database::load(dir / "db", {(dir / "g.nt").string()});
  GraphStore store(dir / "db");
  const Profiled p =
      profiled(store, "SELECT * { ?x <http://e/friend> ?y . ?y <http://e/pet> ?z . ?x <http://e/owns> ?z }");
  REQUIRE(p.outcome.rows.rows == 100);
  const engine::BoundBgp& bgp = p.leaf->bgp();
  const engine::ComponentPlan plan = planInOrder(bgp, store.catalog(), {"x", "y", "z"});
  REQUIRE(plan.steps[2].checks.size() == 1);  // the cycle, closed at the last step
  REQUIRE(bgp.vertices[plan.steps[2].driver.boundVertex].name == "y");

  const auto estimator = engine::makeCpuWalkEstimator();
  constexpr int kSeeds = 200;
  double sum = 0;
  uint64_t alleySurvivors = 0, wanderSurvivors = 0;
  std::vector<double> trawled, walked;
  const auto qError = [](double estimate) { return std::max(estimate / 100, 100 / std::max(estimate, 1.0)); };
  for (int seed = 1; seed <= kSeeds; ++seed) {
    const engine::WalkOptions walks{.walks = 16, .seed = static_cast<uint64_t>(seed)};
    const auto e = estimator->estimate(plan, bgp, store, walks);
    REQUIRE(e.size() == 3);
    CHECK(e[1].rows == 1000);  // the friend edges, drawn uniformly: exact
    sum += e[2].rows;
    trawled.push_back(qError(e[2].rows));
    auto plain = walks;
    plain.trawl = false;
    const auto w = estimator->estimate(plan, bgp, store, plain);
    walked.push_back(qError(w[2].rows));
    wanderSurvivors += w[2].survivors;
    // Alley draws z among y's pets that x owns: a walk dies only at a y with none (9 of 10).
    auto alley = plain;
    alley.alley = true;
    alleySurvivors += estimator->estimate(plan, bgp, store, alley)[2].survivors;
  }
  INFO("survivors of the last step over all seeds: Alley " << alleySurvivors << ", Wander Join " << wanderSurvivors);
  CHECK(alleySurvivors > 5 * wanderSurvivors);  // about 1 in 10 against 1 in 100
  CHECK(sum / kSeeds == doctest::Approx(100).epsilon(0.05));  // unbiased
  std::sort(trawled.begin(), trawled.end());
  std::sort(walked.begin(), walked.end());
  CHECK(trawled[kSeeds / 2] < 1.5);  // the median run
  CHECK(trawled[kSeeds * 9 / 10] < 2);
  CHECK(walked[kSeeds / 2] > 10);
}

TEST_CASE("trawling leaves the steps alone that enough walks got through") {
  TempDir dir;
  std::string nt;
  for (int i = 0; i < 200; ++i) {
    nt += "<http://e/s" + std::to_string(i) + "> <http://e/p> <http://e/o" + std::to_string(i % 7) + "> .\n";
  }
  writeFile(dir / "g.nt", nt);
  Database::load(dir / "db", {(dir / "g.nt").string()});
  GraphStore store(dir / "db");
  const Profiled p = profiled(store, "SELECT * { ?s <http://e/p> ?o . ?t <http://e/p> ?o }");
  const engine::ComponentPlan& plan = p.leaf->plan().components.at(0);
  const auto estimator = engine::makeCpuWalkEstimator();
  const engine::WalkOptions walks{.walks = 1000, .seed = 5};
  auto plain = walks;
  plain.trawl = false;
  const auto e = estimator->estimate(plan, p.leaf->bgp(), store, walks);
  const auto w = estimator->estimate(plan, p.leaf->bgp(), store, plain);
  REQUIRE(e.size() == w.size());
  for (size_t s = 0; s < e.size(); ++s) {
    CHECK((w[s].exact || w[s].survivors >= 64));
    CHECK(e[s].rows == w[s].rows);
  }
}
