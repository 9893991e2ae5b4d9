// Wander Join and Alley on the GPU (engine/gpu/gpu_wander_join.cuh, through
// the GPU executor's WalkEstimator) against the exact rows of every step and
// against the CPU's walks, on the WatDiv SF1 sample and random BGPs (also
// with a variable limited to a set of constants by VALUES), batches dealt
// out over every GPU as on one, and Alley's
// scans by a whole warp on a cycle whose closing step has 100 candidates.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include "engine/cpu/cpu_executor.h"
#include "engine/gpu/gpu_executor.h"
#include "engine/optimizer/walk_estimator.h"
#include "engine/optimizer/wander_join.h"
#include "engine/physical/bgp_scan.h"
#include "engine/query/query_runner.h"
#include "every_gpu.h"
#include "gsparql/database.h"
#include "parser/parse.h"
#include "storage/graph_store.h"
#include "support/plans.h"
#include "support/random_bgp.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

struct Tally {
  int steps = 0, withinThree = 0, agree = 0, compared = 0;
};

// A batch of the plan, its first half and the plan again: each as alone
// (the same walks; sums in another order).
void checkBatch(engine::WalkEstimator& gpu, const GraphStore& store, const engine::ComponentPlan& plan,
                const engine::BoundBgp& bgp, const engine::WalkOptions& walks,
                const std::vector<engine::StepEstimate>& alone) {
  engine::ComponentPlan half = plan;
  half.steps.resize((plan.steps.size() + 1) / 2);
  const std::vector<engine::ComponentPlan> plans{plan, half, plan};
  const auto batch = gpu.estimateBatch(plans, bgp, store, walks);
  REQUIRE(batch.size() == 3);
  CHECK(batch[1].size() == std::min(alone.size(), half.steps.size()));
  for (size_t p : {0, 1, 2}) {
    for (size_t s = 0; s < batch[p].size(); ++s) {
      CHECK(batch[p][s].survivors == alone[s].survivors);
      CHECK(batch[p][s].rows == doctest::Approx(alone[s].rows).epsilon(1e-9));
      CHECK(batch[p][s].candidates == doctest::Approx(alone[s].candidates).epsilon(1e-9));
    }
  }
  CHECK(batch[0].size() == alone.size());
  CHECK(batch[2].size() == alone.size());
}

// Every step the GPU's walks reach: within its error bars of the exact rows
// (the CPU executor's profile), zero where they are, and near the CPU's walks;
// batches alike on one GPU and dealt out over every GPU (`spread`).
void check(const GraphStore& store, engine::WalkEstimator& gpu, engine::WalkEstimator& spread,
           const std::string& query, uint64_t seed, Tally& t, bool alley = false) {
  auto cpu = engine::makeCpuExecutor();
  auto orderer = engine::makeStatisticsOrderer();
  const engine::QueryOutcome outcome = engine::runQuery(sparql::parseQuery(query), store, *cpu, *orderer, {});
  const engine::BgpLeaf* scan = engine::firstBgpLeaf(*outcome.plan);
  if (scan == nullptr || scan->bgp().hasAbsentConstant) return;
  const auto& profiled = scan->executionProfile().steps;
  size_t next = 0;
  const engine::WalkOptions walks{.walks = 1u << 16, .seed = seed, .trawl = false, .alley = alley};  // the walks alone
  for (uint32_t c = 0; c < scan->plan().components.size(); ++c) {
    const auto& plan = scan->plan().components[c];
    const auto onGpu = gpu.estimate(plan, scan->bgp(), store, walks);
    const auto onCpu = engine::wanderJoin(plan, scan->bgp(), store, walks);
    checkBatch(gpu, store, plan, scan->bgp(), walks, onGpu);
    checkBatch(spread, store, plan, scan->bgp(), walks, onGpu);
    CHECK(onGpu.size() <= onCpu.size());  // the GPU stops also where a predicate names a vertex
    const size_t first = next;
    while (next < profiled.size() && profiled[next].component == c) ++next;  // it may stop early
    for (size_t s = 0; s < onGpu.size() && first + s < next; ++s) {
      const double exact = static_cast<double>(profiled[first + s].actualRows);
      const engine::StepEstimate& e = onGpu[s];
      CAPTURE(s);
      CAPTURE(exact);
      CAPTURE(e.rows);
      if (exact == 0) {
        CHECK(e.rows == 0);
        CHECK(e.survivors == 0);
        continue;
      }
      ++t.steps;
      if (e.survivors == 0) continue;
      const double error = std::abs(e.rows - exact) / exact;
      CHECK(error <= std::max(8 * e.relativeError, 1e-9));
      t.withinThree += error <= 3 * e.relativeError + 1e-9;
      if (onCpu[s].survivors > 0) {
        ++t.compared;
        const double spread = std::hypot(e.relativeError * e.rows, onCpu[s].relativeError * onCpu[s].rows);
        t.agree += std::abs(e.rows - onCpu[s].rows) <= 3 * spread + 1e-9 * exact;
        // Candidates before the checks: the same quantity on both, estimated
        // alike where many walks reached the step.
        if (e.survivors >= 1000 && onCpu[s].survivors >= 1000) {
          CHECK(e.candidates == doctest::Approx(onCpu[s].candidates).epsilon(0.2));
        }
      }
    }
  }
}

}  // namespace

TEST_CASE("Wander Join on the GPU: within its error bars of the exact rows and of the CPU's walks") {
  if (!engine::gpuAvailable()) {
    std::printf("no CUDA device: skipped\n");
    return;
  }
  auto executor = engine::makeGpuExecutor();
  engine::WalkEstimator* gpu = executor->walkEstimator();
  REQUIRE(gpu != nullptr);
  CHECK(gpu->name() == "gpu");
  engine::SpreadOptions splitAll;
  splitAll.splitWalks = 1;
  auto everyGpuExecutor = everyGpu(splitAll);
  engine::WalkEstimator& spread = *everyGpuExecutor->walkEstimator();
  CHECK(spread.name() == "gpu");
  Tally t, alley;  // Wander Join's walks, Alley's (on the random graphs)
  {
    TempDir dir;
    Database::load(dir.path(), {dataFile("watdiv/sf1.nt.zst")});
    GraphStore store(dir.path());
    for (const auto& file : std::filesystem::directory_iterator(dataFile("watdiv/sf1/queries"))) {
      CAPTURE(file.path());
      check(store, *gpu, spread, readText(file.path()), 7, t);
    }
  }
  std::mt19937 random(20261124);
  for (int i = 0; i < 200; ++i) {
    RandomCase c = randomCase(random);
    TempDir dir;
    GraphStore store(loadGraph(dir.path(), c.graph));
    CAPTURE(c.query);
    check(store, *gpu, spread, c.query, static_cast<uint64_t>(i) + 1, t);
    check(store, *gpu, spread, c.query, static_cast<uint64_t>(i) + 1, alley, true);
    // Walks that start from, or pass, a variable limited to a set of constants.
    const std::string variable = randomVertexVariable(c, random);
    if (variable.empty()) continue;
    const std::string limited = withValues(c, variable, randomVertexTerms(random));
    CAPTURE(limited);
    check(store, *gpu, spread, limited, static_cast<uint64_t>(i) + 1, t);
  }
  INFO("steps " << t.steps << ", within 3 standard errors " << t.withinThree << "; compared with the CPU "
                << t.compared << ", agreeing " << t.agree);
  CHECK(t.steps > 600);
  CHECK(t.withinThree >= t.steps * 9 / 10);
  CHECK(t.agree >= t.compared * 9 / 10);
  INFO("Alley: steps " << alley.steps << ", within 3 standard errors " << alley.withinThree
                       << "; compared with the CPU " << alley.compared << ", agreeing " << alley.agree);
  CHECK(alley.steps > 100);  // 148 on the H200: the random graphs' steps with checks
  CHECK(alley.withinThree >= alley.steps * 9 / 10);
  CHECK(alley.agree >= alley.compared * 9 / 10);
}

TEST_CASE("Alley on the GPU: a warp scans each walk's candidates together, and draws every survivor alike") {
  if (!engine::gpuAvailable()) {
    std::printf("no CUDA device: skipped\n");
    return;
  }
  // 64 users x, each with 8 friends y; each y has 100 pets z (one has
  // 5,000: more than Alley scans, walked as Wander Join's), and each x owns
  // 400 things, of which (x % 4) + 1 pets of each of its friends. Planned x,
  // y, z: z from y's pets, checked against x's. The warp scans 100
  // candidates (4 rounds of 32 lanes) for each walk at the last step.
  TempDir dir;
  std::string nt;
  const auto iri = [](const std::string& kind, int i) { return "<http://e/" + kind + std::to_string(i) + ">"; };
  for (int x = 0; x < 64; ++x) {
    int owned = 0;
    for (int f = 0; f < 8; ++f) {
      const int y = x * 8 + f, pets = y == 0 ? 5000 : 100;
      nt += iri("x", x) + " <http://e/friend> " + iri("y", y) + " .\n";
      for (int z = 0; z < pets; ++z) nt += iri("y", y) + " <http://e/pet> " + iri("z", y * 10000 + z) + " .\n";
      for (int z = 0; z <= x % 4; ++z, ++owned) nt += iri("x", x) + " <http://e/owns> " + iri("z", y * 10000 + z * 7) + " .\n";
    }
    for (; owned < 400; ++owned) nt += iri("x", x) + " <http://e/owns> " + iri("t", x * 400 + owned) + " .\n";
  }
  writeFile(dir / "g.nt", nt);
  Database::load(dir / "db", {(dir / "g.nt").string()});
  GraphStore store(dir / "db");
  auto cpu = engine::makeCpuExecutor();
  const std::string query = "SELECT * { ?x <http://e/friend> ?y . ?y <http://e/pet> ?z . ?x <http://e/owns> ?z }";
  const engine::QueryOutcome outcome =
      engine::runQuery(sparql::parseQuery(query), store, *cpu, *engine::makeStatisticsOrderer(), {});
  const double exact = static_cast<double>(outcome.rows.rows);
  REQUIRE(exact == 8 * (16 * (1 + 2 + 3 + 4)));  // every x's friends, each with (x % 4) + 1 pets it owns
  const engine::BoundBgp& bgp = engine::firstBgpLeaf(*outcome.plan)->bgp();
  const engine::ComponentPlan plan = planInOrder(bgp, store.catalog(), {"x", "y", "z"});
  REQUIRE(plan.steps[2].checks.size() == 1);
  REQUIRE(bgp.vertices[plan.steps[2].driver.boundVertex].name == "y");  // the pets: 100 candidates, or 5,000

  auto executor = engine::makeGpuExecutor();
  engine::WalkEstimator& gpu = *executor->walkEstimator();
  int within = 0;
  constexpr int kSeeds = 20;
  for (int seed = 1; seed <= kSeeds; ++seed) {
    const engine::WalkOptions alley{.walks = 1u << 16, .seed = static_cast<uint64_t>(seed), .trawl = false, .alley = true};
    auto wander = alley;
    wander.alley = false;
    const auto a = gpu.estimate(plan, bgp, store, alley), w = gpu.estimate(plan, bgp, store, wander);
    const auto c = engine::wanderJoin(plan, bgp, store, alley);
    REQUIRE(a.size() == 3);
    REQUIRE(w.size() == 3);
    CAPTURE(a[2].rows);
    CAPTURE(a[2].relativeError);
    const double error = std::abs(a[2].rows - exact) / exact;
    CHECK(error <= 8 * a[2].relativeError);
    within += error <= 3 * a[2].relativeError;
    // A walk dies only at the friend with 5,000 pets (1 in 512) or where none
    // of a friend's 100 pets is owned (never): Wander Join's die 97-99 in 100.
    CHECK(a[2].survivors >= 60000);
    CHECK(w[2].survivors <= 2500);
    const double spread = std::hypot(a[2].relativeError * a[2].rows, c[2].relativeError * c[2].rows);
    CHECK(std::abs(a[2].rows - c[2].rows) <= 5 * spread);  // the CPU's Alley, the same estimate
  }
  CHECK(within >= kSeeds * 8 / 10);
}
