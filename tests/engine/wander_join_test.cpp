// The Wander Join estimator (engine/optimizer/wander_join.h) against the
// exact rows of every join step, which the CPU executor's profile reports.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "engine/bgp/executor.h"
#include "engine/cpu/cpu_executor.h"
#include "engine/optimizer/cost_model.h"
#include "engine/optimizer/join_orderer.h"
#include "engine/optimizer/step_builder.h"
#include "engine/optimizer/walk_estimator.h"
#include "engine/optimizer/wander_join.h"
#include "engine/physical/bgp_scan.h"
#include "engine/query/query_runner.h"
#include "gsparql/database.h"
#include "gsparql/query.h"
#include "parser/parse.h"
#include "storage/graph_store.h"
#include "support/random_bgp.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

struct Tally {
  int steps = 0;         // steps compared
  int withinThree = 0;   // estimate within 3 standard errors of the exact rows
};

// Runs `query` on the CPU executor in the statistics' order and hands each
// component's plan, with the rows each of its steps made, to `compare`.
template <typename Compare>
void withExactRows(const GraphStore& store, const std::string& query, Compare compare) {
  auto cpu = engine::makeCpuExecutor();
  auto orderer = engine::makeStatisticsOrderer();
  const engine::QueryOutcome outcome = engine::runQuery(sparql::parseQuery(query), store, *cpu, *orderer, {});
  const engine::BgpLeaf* scan = engine::firstBgpLeaf(*outcome.plan);
  if (scan == nullptr) return;
  const auto& profiled = scan->executionProfile().steps;
  for (uint32_t c = 0; c < scan->plan().components.size(); ++c) {
    std::vector<double> exactRows;  // the profile may stop early, where a step made no rows
    for (const auto& step : profiled) {
      if (step.component == c) exactRows.push_back(static_cast<double>(step.actualRows));
    }
    compare(scan->plan().components[c], scan->bgp(), exactRows);
  }
}

// Compares the estimate of every step of the query's plan with the rows the step made.
void compareWithExact(const GraphStore& store, const std::string& query, const engine::WalkOptions& walks, Tally& tally) {
  withExactRows(store, query, [&](const engine::ComponentPlan& plan, const engine::BoundBgp& bgp,
                                  const std::vector<double>& exactRows) {
    const auto estimates = engine::wanderJoin(plan, bgp, store, walks);
    for (size_t s = 0; s < estimates.size() && s < exactRows.size(); ++s) {
      const double exact = exactRows[s];
      const engine::StepEstimate& e = estimates[s];
      CAPTURE(s);
      CAPTURE(exact);
      CAPTURE(e.rows);
      if (e.exact) {  // a seed's keys, before the walks draw its edges
        CHECK(s == 0);
        CHECK(e.rows == exact);
        continue;
      }
      if (exact == 0) {
        CHECK(e.rows == 0);  // no walk can survive where no row does
        CHECK(e.survivors == 0);
        continue;
      }
      ++tally.steps;
      if (e.survivors == 0) continue;  // too rare for these walks: the planner falls back to statistics
      const double error = std::abs(e.rows - exact) / exact;
      CHECK(error <= std::max(8 * e.relativeError, 1e-9));
      tally.withinThree += error <= 3 * e.relativeError + 1e-9;
    }
  });
}

// `nt` written and loaded into a database under `dir`: its folder.
std::filesystem::path loadTriples(const TempDir& dir, const std::string& nt) {
  writeFile(dir / "g.nt", nt);
  Database::load(dir / "db", {(dir / "g.nt").string()});
  return dir / "db";
}

// `query` run on the CPU executor in the statistics' order.
engine::QueryOutcome runInStatisticsOrder(const GraphStore& store, const std::string& query) {
  auto cpu = engine::makeCpuExecutor();
  return engine::runQuery(sparql::parseQuery(query), store, *cpu, *engine::makeStatisticsOrderer(), {});
}

// The BGP its plan ran (required to be there).
const engine::BgpLeaf& bgpLeafOf(const engine::QueryOutcome& outcome) {
  const engine::BgpLeaf* leaf = engine::firstBgpLeaf(*outcome.plan);
  REQUIRE(leaf != nullptr);
  return *leaf;
}

}  // namespace

TEST_CASE("Wander Join and Alley estimate every prefix of a plan without bias, on random graphs and BGPs") {
  // Alley draws among the candidates that pass a step's checks; both walk the same steps.
  std::mt19937 random(20261123);
  Tally wander, alley;
  for (int i = 0; i < scaledCases(300); ++i) {
    RandomCase c = randomCase(random);
    TempDir dir;
    GraphStore store(loadGraph(dir.path(), c.graph));
    CAPTURE(c.query);
    const auto seed = static_cast<uint64_t>(i) + 1;
    compareWithExact(store, c.query, {.walks = 20000, .seed = seed}, wander);
    compareWithExact(store, c.query, {.walks = 5000, .seed = seed, .alley = true}, alley);
  }
  for (const Tally& tally : {wander, alley}) {
    INFO("steps " << tally.steps << ", within 3 standard errors " << tally.withinThree);
    CHECK(tally.steps > scaledCases(150));  // walked steps: a seed whose edges the walks draw is counted
    CHECK(tally.withinThree >= tally.steps * 9 / 10);
  }
}

TEST_CASE("the planner's sample counts small prefixes exactly and walks on from their rows without bias") {
  // 4 walks: steps with at most 4 candidates are counted, the others walked
  // from the rows counted before them. Each walked estimate, averaged over
  // 100 seeds, is compared with the exact rows by the spread of the seeds.
  std::mt19937 random(20261125);
  int exactSteps = 0, walkedSteps = 0, withinThree = 0;
  constexpr int kSeeds = 100;
  for (int i = 0; i < scaledCases(200); ++i) {
    RandomCase c = randomCase(random);
    TempDir dir;
    GraphStore store(loadGraph(dir.path(), c.graph));
    CAPTURE(c.query);
    withExactRows(store, c.query, [&](const engine::ComponentPlan& plan, const engine::BoundBgp& bgp,
                                      const std::vector<double>& exactRows) {
      std::vector<double> sum(exactRows.size()), sumOfSquares(exactRows.size());
      std::vector<bool> alwaysExact(exactRows.size(), true);
      for (int seed = 1; seed <= kSeeds; ++seed) {
        const auto estimates = engine::wanderJoin(plan, bgp, store, {.walks = 4, .seed = static_cast<uint64_t>(seed)},
                                                  engine::WalkMode::Planner);
        for (size_t s = 0; s < estimates.size() && s < exactRows.size(); ++s) {
          CAPTURE(s);
          if (estimates[s].exact) {
            CHECK(estimates[s].rows == exactRows[s]);
            CHECK(estimates[s].relativeError == 0);
            CHECK(estimates[s].survivors == std::min(exactRows[s], 4.0));  // a seed's keys beyond the walks: the walks
          }
          alwaysExact[s] = alwaysExact[s] && estimates[s].exact;
          sum[s] += estimates[s].rows;
          sumOfSquares[s] += estimates[s].rows * estimates[s].rows;
        }
      }
      for (size_t s = 0; s < exactRows.size(); ++s) {
        if (alwaysExact[s]) {
          ++exactSteps;
          continue;
        }
        const double mean = sum[s] / kSeeds;
        const double standardError = std::sqrt(std::max(0.0, sumOfSquares[s] / kSeeds - mean * mean) / kSeeds);
        CAPTURE(s);
        CAPTURE(exactRows[s]);
        CAPTURE(mean);
        CHECK(std::abs(mean - exactRows[s]) <= 8 * standardError + 1e-9 * exactRows[s]);
        withinThree += std::abs(mean - exactRows[s]) <= 3 * standardError + 1e-9 * exactRows[s];
        ++walkedSteps;
      }
    });
  }
  INFO("exact " << exactSteps << ", walked " << walkedSteps << ", within 3 standard errors " << withinThree);
  CHECK(exactSteps > scaledCases(100));
  CHECK(walkedSteps > scaledCases(30));
  CHECK(withinThree >= walkedSteps * 9 / 10);
}

TEST_CASE("the planner's sample: exact while a step's candidates number at most the walks, unbiased after") {
  // <s> has 10 <p> neighbours; each has 30 <q> neighbours, and one in three
  // of those has a <r> edge: 10, then 300 rows, then 100.
  TempDir dir;
  std::string nt;
  for (int i = 0; i < 10; ++i) {
    const std::string m = "<http://e/m" + std::to_string(i) + ">";
    nt += "<http://e/s> <http://e/p> " + m + " .\n";
    for (int k = 0; k < 30; ++k) {
      const std::string t = "<http://e/t" + std::to_string(i * 30 + k) + ">";
      nt += m + " <http://e/q> " + t + " .\n";
      if (k % 3 == 0) nt += t + " <http://e/r> <http://e/end> .\n";
    }
  }
  GraphStore store(loadTriples(dir, nt));
  const auto outcome =
      runInStatisticsOrder(store, "SELECT * { <http://e/s> <http://e/p> ?m . ?m <http://e/q> ?t . ?t <http://e/r> ?e }");
  REQUIRE(outcome.rows.rows == 100);
  const engine::BgpLeaf& scan = bgpLeafOf(outcome);
  const auto& plan = scan.plan().components.at(0);
  REQUIRE(plan.steps.size() == 4);  // <s>, ?m, ?t, ?e
  REQUIRE(scan.bgp().vertices[plan.steps[2].vertex].name == "t");

  // 400 walks: all four steps counted.
  const auto counted = engine::wanderJoin(plan, scan.bgp(), store, {.walks = 400, .seed = 1}, engine::WalkMode::Planner);
  REQUIRE(counted.size() == 4);
  const double rows[] = {1, 10, 300, 100};
  for (size_t s = 0; s < 4; ++s) {
    CHECK(counted[s].exact);
    CHECK(counted[s].rows == rows[s]);
  }
  CHECK(counted[2].candidates == 300);

  // 100 walks: ?t's 300 candidates are walked, from the 10 rows before.
  double sum = 0;
  const int seeds = 400;
  for (int seed = 1; seed <= seeds; ++seed) {
    const auto e = engine::wanderJoin(plan, scan.bgp(), store, {.walks = 100, .seed = static_cast<uint64_t>(seed)},
                                      engine::WalkMode::Planner);
    REQUIRE(e.size() == 4);
    CHECK(e[1].exact);
    CHECK(e[1].rows == 10);
    CHECK_FALSE(e[2].exact);
    CHECK(e[2].rows == 300);  // every walk picks one of 30 neighbours of one of 10 rows: weight 10 x 30
    CHECK_FALSE(e[3].exact);
    sum += e[3].rows;
  }
  CHECK(sum / seeds == doctest::Approx(100).epsilon(0.02));
}

TEST_CASE("the planner's sample draws a seed's edges where the next step follows them: hubs are not missed") {
  // 20 products: p0 liked by 300 users, the others by 5 each (395 likes).
  // ?b likes ?p . ?c likes ?p has 300^2 + 19 * 25 = 90,475 rows, nine in ten
  // of them through p0. 8 walks drawing products uniformly miss p0 in two
  // runs of three; drawing likes uniformly finds it in three walks of four.
  TempDir dir;
  std::string nt;
  int user = 0;
  for (int p = 0; p < 20; ++p) {
    for (int k = 0; k < (p == 0 ? 300 : 5); ++k) {
      nt += "<http://e/u" + std::to_string(user++) + "> <http://e/likes> <http://e/p" + std::to_string(p) + "> .\n";
    }
  }
  GraphStore store(loadTriples(dir, nt));
  const auto outcome = runInStatisticsOrder(store, "SELECT * { ?b <http://e/likes> ?p . ?c <http://e/likes> ?p }");
  REQUIRE(outcome.rows.rows == 90475);
  const engine::BgpLeaf& scan = bgpLeafOf(outcome);
  const auto& plan = scan.plan().components.at(0);
  REQUIRE(plan.steps.size() == 3);
  REQUIRE(plan.steps[0].source == engine::CandidateSource::PredicateKeys);
  REQUIRE(scan.bgp().vertices[plan.steps[0].vertex].name == "p");

  constexpr int kSeeds = 400;
  double sum = 0;
  std::vector<double> planner, plain;
  for (int seed = 1; seed <= kSeeds; ++seed) {
    const engine::WalkOptions walks{.walks = 8, .seed = static_cast<uint64_t>(seed)};
    const auto e = engine::wanderJoin(plan, scan.bgp(), store, walks, engine::WalkMode::Planner);
    REQUIRE(e.size() == 3);
    CHECK(e[0].exact);  // the seed's rows are its keys, known before any walk
    CHECK(e[0].rows == 20);
    CHECK_FALSE(e[1].exact);
    CHECK(e[1].rows == 395);  // every walk is one of the 395 likes: the rows, whatever was drawn
    CHECK(e[1].relativeError == 0);
    CHECK(e[1].candidates == 395);
    sum += e[2].rows;
    const auto qError = [](double estimate) { return std::max(estimate / 90475, 90475 / std::max(estimate, 1.0)); };
    planner.push_back(qError(e[2].rows));
    plain.push_back(qError(engine::wanderJoin(plan, scan.bgp(), store, walks)[2].rows));
  }
  CHECK(sum / kSeeds == doctest::Approx(90475).epsilon(0.05));  // unbiased
  std::sort(planner.begin(), planner.end());
  std::sort(plain.begin(), plain.end());
  CHECK(planner[kSeeds / 2] < 1.5);  // the median run
  CHECK(plain[kSeeds / 2] < 1.5);    // the estimators' walks draw the seed's edges too (uniform seeds missed p0: > 10)
}

TEST_CASE("the planner's sample counts a seed checked against a constant from the constant's side") {
  // 100 of 200 users have an e-mail (the even ones); 5 users are friends of
  // <c>, 3 of them with an e-mail. Seeded by the e-mail's 100 subjects, then
  // <c> checked: 8 walks drawn over the subjects would meet one of the 3 in a
  // run of four, and estimate 0 rows otherwise.
  TempDir dir;
  std::string nt;
  for (int u = 0; u < 200; ++u) {
    const std::string user = "<http://e/u" + std::to_string(u) + ">";
    if (u % 2 == 0) nt += user + " <http://e/email> \"" + std::to_string(u) + "\" .\n";
    nt += user + " <http://e/friendOf> <http://e/u" + std::to_string((u + 1) % 200) + "> .\n";
    if (u < 5) nt += user + " <http://e/friendOf> <http://e/c> .\n";
  }
  GraphStore store(loadTriples(dir, nt));
  const auto outcome =
      runInStatisticsOrder(store, "SELECT * { ?x <http://e/email> ?e . ?x <http://e/friendOf> <http://e/c> }");
  REQUIRE(outcome.rows.rows == 3);
  const engine::BgpLeaf& scan = bgpLeafOf(outcome);
  const engine::BoundBgp& bgp = scan.bgp();
  const auto vertex = [&](const std::string& name) {
    for (uint32_t v = 0; v < bgp.vertices.size(); ++v) {
      if (bgp.vertices[v].name == name || (!bgp.vertices[v].isVariable && name == "c")) return v;
    }
    FAIL("no vertex " << name);
    return uint32_t{0};
  };
  engine::StepBuilder builder(bgp, store.catalog());
  engine::ComponentPlan plan;
  plan.steps.push_back(builder.seedStep(vertex("x")));
  plan.steps.push_back(builder.extendStep(vertex("c")));
  plan.steps.push_back(builder.extendStep(vertex("e")));
  REQUIRE(plan.steps[0].source == engine::CandidateSource::PredicateKeys);
  REQUIRE(plan.steps[1].source == engine::CandidateSource::Constant);

  // 8 walks: the constant's 5 friends are counted, the 3 with an e-mail kept.
  const auto counted = engine::wanderJoin(plan, bgp, store, {.walks = 8, .seed = 1}, engine::WalkMode::Planner);
  REQUIRE(counted.size() == 3);
  CHECK(counted[0].exact);
  CHECK(counted[0].rows == 100);
  CHECK(counted[1].exact);
  CHECK(counted[1].rows == 3);
  CHECK(counted[2].rows == 3);

  // 2 walks: the 5 friends are walked, each walk worth 5; unbiased over seeds.
  double sum = 0;
  int zeros = 0;
  constexpr int kSeeds = 400;
  for (int seed = 1; seed <= kSeeds; ++seed) {
    const auto e = engine::wanderJoin(plan, bgp, store, {.walks = 2, .seed = static_cast<uint64_t>(seed)},
                                      engine::WalkMode::Planner);
    REQUIRE(e.size() == 3);
    CHECK_FALSE(e[1].exact);
    sum += e[1].rows;
    zeros += e[1].rows == 0;
  }
  CHECK(sum / kSeeds == doctest::Approx(3).epsilon(0.1));
  CHECK(zeros < kSeeds / 4);  // both walks miss in (2/5)^2 of the runs
}

TEST_CASE("Wander Join on the WatDiv SF1 sample: every estimate within its error bars, exact where steps are certain") {
  TempDir dir;
  Database::load(dir.path(), {dataFile("watdiv/sf1.nt.zst")});
  GraphStore store(dir.path());
  Tally tally;
  for (const auto& file : std::filesystem::directory_iterator(dataFile("watdiv/sf1/queries"))) {
    CAPTURE(file.path());
    compareWithExact(store, readText(file.path()), {.walks = 4096, .seed = 7}, tally);
  }
  INFO("steps " << tally.steps << ", within 3 standard errors " << tally.withinThree);
  CHECK(tally.steps > 500);
  CHECK(tally.withinThree >= tally.steps * 9 / 10);
}

TEST_CASE("the same seed gives the same estimates, walks never pass a step that has no rows") {
  TempDir dir;
  writeFile(dir / "g.nt",
            "<http://e/a> <http://e/p> <http://e/b> .\n<http://e/a> <http://e/p> <http://e/c> .\n"
            "<http://e/b> <http://e/q> <http://e/d> .\n");
  Database::load(dir / "db", {(dir / "g.nt").string()});
  GraphStore store(dir / "db");
  auto cpu = engine::makeCpuExecutor();
  auto orderer = engine::makeStatisticsOrderer();
  const auto outcome = engine::runQuery(
      sparql::parseQuery("SELECT * { ?x <http://e/p> ?y . ?y <http://e/q> ?z }"), store, *cpu, *orderer, {});
  const engine::BgpLeaf* scan = engine::firstBgpLeaf(*outcome.plan);
  REQUIRE(scan != nullptr);
  const auto& plan = scan->plan().components.at(0);
  const auto first = engine::wanderJoin(plan, scan->bgp(), store, {.walks = 500, .seed = 3});
  const auto again = engine::wanderJoin(plan, scan->bgp(), store, {.walks = 500, .seed = 3});
  REQUIRE(first.size() == 3);
  for (size_t s = 0; s < first.size(); ++s) CHECK(first[s].rows == again[s].rows);
  CHECK(first.back().rows > 0);
  CHECK(first.back().rows < 4);  // 1 solution; the walks' estimate is near it

  // A batch of plans: each estimated as alone.
  const auto estimator = engine::makeCpuWalkEstimator();
  engine::ComponentPlan firstStep = plan;
  firstStep.steps.resize(1);
  const auto batch = estimator->estimateBatch(std::vector{plan, firstStep}, scan->bgp(), store,
                                              {.walks = 500, .seed = 3, .trawl = false});
  REQUIRE(batch.size() == 2);
  REQUIRE(batch[0].size() == 3);
  REQUIRE(batch[1].size() == 1);
  for (size_t s = 0; s < first.size(); ++s) CHECK(batch[0][s].rows == first[s].rows);
  CHECK(batch[1][0].rows == first[0].rows);
}

TEST_CASE("the sampling optimizer estimates correlated joins that the statistics cannot, and stars the statistics know by their sets") {
  // A star: <a> and <b> each have 2,000 subjects, but only one subject has
  // both; every subject also has five <c> edges. Independence would guess
  // 2,000 matches of ?x <a> ?y . ?x <b> ?z; the characteristic sets know
  // there is 1. A path: 2,000 objects of <a>, 2,001 subjects of <b>, one
  // vertex both: no per-subject statistics can tell.
  TempDir dir;
  std::string nt;
  for (int i = 0; i < 4000; ++i) {
    const std::string x = "<http://e/x" + std::to_string(i) + ">";
    nt += x + (i < 2000 ? " <http://e/a> " : " <http://e/b> ") + "<http://e/y" + std::to_string(i % 7) + "> .\n";
    for (int k = 0; k < 5; ++k) nt += x + " <http://e/c> <http://e/z" + std::to_string(k) + "> .\n";
  }
  nt += "<http://e/x0> <http://e/b> <http://e/y1> .\n";
  for (int i = 0; i < 2000; ++i) {
    nt += "<http://e/f" + std::to_string(i) + "> <http://e/from> <http://e/m" + std::to_string(i) + "> .\n";
    nt += "<http://e/n" + std::to_string(i) + "> <http://e/to> <http://e/t> .\n";
  }
  nt += "<http://e/m0> <http://e/to> <http://e/t> .\n";
  writeFile(dir / "data.nt", nt);
  Database::load(dir / "db", {(dir / "data.nt").string()});
  Database db(dir / "db");
  auto worstQError = [&](const std::string& query, Optimizer optimizer, size_t rows) {
    QueryOptions options{Backend::Cpu};
    options.optimizer = optimizer;
    const QueryResult result = db.query(query, options);
    CHECK(result.rowCount() == rows);
    double worst = 1;
    for (const RowEstimate& e : result.rowEstimates()) worst = std::max(worst, e.qError);
    return worst;
  };
  const std::string star = "SELECT * WHERE { ?x <http://e/c> ?w . ?x <http://e/a> ?y . ?x <http://e/b> ?z }";
  CHECK(worstQError(star, Optimizer::Statistics, 5) < 2);
  CHECK(worstQError(star, Optimizer::Sampling, 5) < 20);  // one match in 2,000 rows, seen by 128 walks
  const std::string path = "SELECT * WHERE { ?x <http://e/from> ?y . ?y <http://e/to> ?z }";
  CHECK(worstQError(path, Optimizer::Statistics, 1) > 100);
  CHECK(worstQError(path, Optimizer::Sampling, 1) < 20);
}

TEST_CASE("the sampling optimizer starts from a vertex's own few candidates rather than a constant's many neighbours") {
  // 3,000 subjects have <p> <C>; 100 of them, and 100 others, have <rare>.
  // SGSI's seed is the constant (one candidate), whose step makes 3,000
  // rows; starting from the 200 subjects of <rare> and checking <C> makes
  // far fewer.
  TempDir dir;
  std::string nt;
  for (int i = 0; i < 3100; ++i) {
    const std::string x = "<http://e/x" + std::to_string(i) + ">";
    if (i < 3000) nt += x + " <http://e/p> <http://e/C> .\n";
    if (i % 30 == 0 || i >= 3000) nt += x + " <http://e/rare> \"" + std::to_string(i) + "\" .\n";
  }
  writeFile(dir / "data.nt", nt);
  Database::load(dir / "db", {(dir / "data.nt").string()});
  GraphStore store(dir / "db");
  auto cpu = engine::makeCpuExecutor();
  const std::string query = "SELECT * WHERE { ?x <http://e/p> <http://e/C> . ?x <http://e/rare> ?r }";
  const auto firstStep = [&](const engine::JoinOrderer& orderer) {
    const engine::QueryOutcome outcome = engine::runQuery(sparql::parseQuery(query), store, *cpu, orderer, {});
    CHECK(outcome.rows.rows == 100);
    const engine::BgpLeaf* leaf = engine::firstBgpLeaf(*outcome.plan);
    REQUIRE(leaf != nullptr);
    return leaf->plan().components.at(0).steps.at(0).source;
  };
  CHECK(firstStep(*engine::makeStatisticsOrderer()) == engine::CandidateSource::Constant);
  CHECK(firstStep(*engine::makeSamplingOrderer(store, {.walks = 128, .seed = 1}, {defaultCostModel().cpu})) ==
        engine::CandidateSource::PredicateKeys);
}

TEST_CASE("the sampling optimizer takes a branch's small fan-out last where the dynamic programming makes fewer rows") {
  TempDir dir;  // branchFanOutTriples: the greedy binds ?a first, fewest rows over the steps ?b, ?z, ?a
  writeFile(dir / "data.nt", branchFanOutTriples());
  Database::load(dir / "db", {(dir / "data.nt").string()});
  GraphStore store(dir / "db");
  auto cpu = engine::makeCpuExecutor();
  const auto outcome = engine::runQuery(sparql::parseQuery(kBranchFanOutQuery), store, *cpu,
                                        *engine::makeSamplingOrderer(store, {.walks = 128, .seed = 1}, {defaultCostModel().cpu}), {});
  CHECK(outcome.rows.rows == 5000);
  const engine::BgpLeaf* leaf = engine::firstBgpLeaf(*outcome.plan);
  REQUIRE(leaf != nullptr);
  std::string order;
  for (const auto& step : leaf->plan().components.at(0).steps) {
    order += leaf->bgp().vertices[step.vertex].isVariable ? leaf->bgp().vertices[step.vertex].name : "c";
  }
  CAPTURE(order);
  CHECK(order.ends_with("a"));  // <c>, ?b and ?z in an order of 100-1,000 rows a step, then ?a
}

TEST_CASE("the sampling optimizer searches orders only where the executor that runs the plan takes long") {
  TempDir dir;  // branchFanOutTriples: the greedy's plan makes 55,000 rows, the search's 6,100
  writeFile(dir / "data.nt", branchFanOutTriples());
  Database::load(dir / "db", {(dir / "data.nt").string()});
  GraphStore store(dir / "db");
  auto cpu = engine::makeCpuExecutor();
  const auto lastVertex = [&](std::vector<ExecutorCosts> executors) {
    const auto orderer = engine::makeSamplingOrderer(store, {.walks = 128, .seed = 1}, std::move(executors));
    const auto outcome = engine::runQuery(sparql::parseQuery(kBranchFanOutQuery), store, *cpu, *orderer, {});
    CHECK(outcome.rows.rows == 5000);
    const engine::BgpLeaf* leaf = engine::firstBgpLeaf(*outcome.plan);
    REQUIRE(leaf != nullptr);
    return leaf->bgp().vertices[leaf->plan().components.at(0).steps.back().vertex].name;
  };
  // The greedy's 55,000 rows: 2.75 ms on the slow executor, of which a
  // search of the 10 connected sets may save a third; 0.06 ms on the fast one.
  const ExecutorCosts slow{.perRow = 0.05}, fast{.perBgp = 40, .perRow = 0.001};
  CHECK(lastVertex({slow}) == "a");
  CHECK(lastVertex({fast}) != "a");
  CHECK(lastVertex({slow, fast}) != "a");  // auto: the fast one would run the greedy plan
  CHECK_THROWS_AS(engine::makeSamplingOrderer(store, {}, {}), std::invalid_argument);
}

TEST_CASE("the sampling optimizer takes a leaf after a vertex of the same rows that makes others adjacent") {
  // <u> has 20 followers, 2 of them with a name. ?x and ?y both make 20 rows
  // from <u>; ?y then makes its name's 2 rows before ?x multiplies them,
  // where ?x first would make 400 rows to find the same 40.
  TempDir dir;
  std::string nt;
  for (int i = 0; i < 20; ++i) {
    const std::string f = "<http://e/f" + std::to_string(i) + ">";
    nt += f + " <http://e/follows> <http://e/u> .\n";
    if (i < 2) nt += f + " <http://e/name> \"n" + std::to_string(i) + "\" .\n";
  }
  GraphStore store(loadTriples(dir, nt));
  auto cpu = engine::makeCpuExecutor();
  const auto outcome = engine::runQuery(
      sparql::parseQuery("SELECT * { ?x <http://e/follows> <http://e/u> . ?y <http://e/follows> <http://e/u> . "
                         "?y <http://e/name> ?n }"),
      store, *cpu, *engine::makeSamplingOrderer(store, {.walks = 128, .seed = 1}, {defaultCostModel().cpu}), {});
  CHECK(outcome.rows.rows == 40);
  const engine::BgpLeaf& leaf = bgpLeafOf(outcome);
  std::string order;
  for (const auto& step : leaf.plan().components.at(0).steps) {
    order += leaf.bgp().vertices[step.vertex].isVariable ? leaf.bgp().vertices[step.vertex].name : "u";
  }
  CHECK(order == "uynx");
}

TEST_CASE("a count binds a path's two ends last, where the plan for rows starts from one end") {
  // Path ?a -p-> ?b -q-> ?c -r-> ?m. 10 vertices <c>, each with the same 3
  // <r> objects and 20 <q> subjects of its own; every ?b has the same 30 <p>
  // subjects. For rows the plan starts from ?m's 3 candidates: ?m (3), ?c
  // (30), ?b (600), ?a (18,000); a count cannot move that seed after the
  // others (planner/count_plan.h), and makes ?b's 600 rows. Binding ?c and ?b
  // (200 rows) first, it multiplies both ends' lists.
  TempDir dir;
  std::string nt;
  for (int c = 0; c < 10; ++c) {
    const std::string cn = "<http://e/c" + std::to_string(c) + ">";
    for (int m = 0; m < 3; ++m) nt += cn + " <http://e/r> <http://e/m" + std::to_string(m) + "> .\n";
    for (int b = 0; b < 20; ++b) {
      const std::string bn = "<http://e/b" + std::to_string(c * 20 + b) + ">";
      nt += bn + " <http://e/q> " + cn + " .\n";
      for (int a = 0; a < 30; ++a) nt += "<http://e/a" + std::to_string(a) + "> <http://e/p> " + bn + " .\n";
    }
  }
  GraphStore store(loadTriples(dir, nt));
  const auto orderer = engine::makeSamplingOrderer(store, {.walks = 128, .seed = 1}, {defaultCostModel().cpu});
  const std::string pattern = "{ ?a <http://e/p> ?b . ?b <http://e/q> ?c . ?c <http://e/r> ?m }";
  auto cpu = engine::makeCpuExecutor();
  const auto counted = engine::runQuery(sparql::parseQuery("SELECT (COUNT(*) AS ?n) " + pattern), store, *cpu, *orderer, {});
  const auto rows = engine::runQuery(sparql::parseQuery("SELECT * " + pattern), store, *cpu, *orderer, {});
  CHECK(rows.rows.rows == 18000);
  CHECK(countOf(Database(dir / "db").query("SELECT (COUNT(*) AS ?n) " + pattern, {Backend::Cpu})) == 18000);
  const auto orderOf = [](const engine::BgpLeaf& leaf) {
    std::string order;
    for (const auto& step : leaf.plan().components.at(0).steps) order += leaf.bgp().vertices[step.vertex].name;
    return order;
  };
  CHECK(orderOf(bgpLeafOf(rows)) == "mcba");
  const engine::BgpLeaf& count = bgpLeafOf(counted);
  CAPTURE(orderOf(count));
  CHECK(orderOf(count).starts_with("cb"));
  CHECK(count.plan().components.at(0).countedLeavesFrom == 2);
}

TEST_CASE("where no walk survives a step, the planner's rows lie between half a walk's share and the star's rows") {
  // A step 100 walks entered and none passed, after 1,000 rows: half a
  // walk's share is 5 rows, all the planner takes without the characteristic sets.
  const engine::StepEstimate none{.rows = 0, .candidates = 10, .survivors = 0};
  CHECK(engine::rowsAfter(none, 1000, 100) == 5);
  for (double statistics : {0.01, 5.0, 80.0, 1e6}) {
    CAPTURE(statistics);
    const double rows = engine::rowsAfter(none, 1000, 100, statistics);
    CHECK(rows >= std::min(5.0, statistics) * (1 - 1e-12));
    CHECK(rows <= std::max(5.0, statistics) * (1 + 1e-12));
    CHECK(rows * rows == doctest::Approx(5.0 * statistics));  // as far from each in ratio
  }
  CHECK(engine::rowsAfter(none, 1000, 100, 0) == 5);  // no star the sets kept: no second guess
  // Walks that got through, counted rows, and a step no walk entered keep their own estimate.
  const engine::StepEstimate walked{.rows = 42, .relativeError = 0.1, .survivors = 3};
  CHECK(engine::rowsAfter(walked, 1000, 100, 1e6) == 42);
  const engine::StepEstimate counted{.rows = 0, .relativeError = 0, .survivors = 0, .exact = true};
  CHECK(engine::rowsAfter(counted, 1000, 100, 1e6) == 0);
  CHECK(engine::rowsAfter(none, 0, 0, 1e6) == 0);
}

TEST_CASE("the sampling optimizer plans a star from its centre where a leaf's few values seed it, its leaves by fan-out") {
  // 2,000 centres, each with 1 <a>, 5 <b> and 20 <d> (200,000 rows, where
  // other seeds are tried). The statistics seed the star from ?z (20
  // values): 280,020 rows over the steps; from the centre, then the leaves
  // by fan-out, 214,000.
  TempDir dir;
  std::string nt;
  for (int c = 0; c < 2000; ++c) {
    const std::string centre = "<http://e/c" + std::to_string(c) + ">";
    nt += centre + " <http://e/a> <http://e/x" + std::to_string(c) + "> .\n";
    for (int i = 0; i < 5; ++i) nt += centre + " <http://e/b> <http://e/y" + std::to_string(c * 5 + i) + "> .\n";
    for (int i = 0; i < 20; ++i) nt += centre + " <http://e/d> <http://e/z" + std::to_string(i) + "> .\n";
  }
  writeFile(dir / "data.nt", nt);
  Database::load(dir / "db", {(dir / "data.nt").string()});
  GraphStore store(dir / "db");
  auto cpu = engine::makeCpuExecutor();
  const auto outcome =
      engine::runQuery(sparql::parseQuery("SELECT * { ?c <http://e/d> ?z . ?c <http://e/b> ?y . ?c <http://e/a> ?x }"),
                       store, *cpu, *engine::makeSamplingOrderer(store, {.walks = 128, .seed = 1}, {defaultCostModel().cpu}), {});
  CHECK(outcome.rows.rows == 200000);
  const engine::BgpLeaf* leaf = engine::firstBgpLeaf(*outcome.plan);
  REQUIRE(leaf != nullptr);
  std::string order;
  for (const auto& step : leaf->plan().components.at(0).steps) order += leaf->bgp().vertices[step.vertex].name;
  CHECK(order == "cxyz");
}
