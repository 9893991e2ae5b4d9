// The GPU executor counts as products exactly the leaves a count's plan
// marks (planner/count_plan.h), as the CPU executor does
// (tests/engine/counted_leaves_test.cpp), and counts what the CPU counts.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "engine/cpu/cpu_executor.h"
#include "engine/gpu/gpu_executor.h"
#include "engine/optimizer/join_orderer.h"
#include "engine/physical/bgp_leaf.h"
#include "engine/placement/fallback_executor.h"
#include "engine/query/query_runner.h"
#include "gsparql/database.h"
#include "parser/parse.h"
#include "storage/graph_store.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

struct Counted {
  size_t planLeaves = 0;
  size_t leavesCounted = 0;
  std::string explain;
};

Counted countOn(engine::Executor& executor, const GraphStore& store, const std::string& query, bool injective) {
  auto orderer = engine::makeStatisticsOrderer();
  engine::QueryRequest options;
  options.run.injective = injective;
  const auto outcome = engine::runQuery(sparql::parseQuery(query), store, executor, *orderer, options);
  const engine::BgpLeaf* leaf = engine::firstBgpLeaf(*outcome.plan);
  REQUIRE(leaf != nullptr);
  Counted counted{0, leaf->executionProfile().countedLeaves, engine::explainPlan(outcome, store)};
  for (const auto& component : leaf->plan().components) counted.planLeaves += component.countedLeaves();
  return counted;
}

}  // namespace

TEST_CASE("the GPU counts as products the leaves the count's plan marks, as the CPU does, under both semantics") {
  if (!engine::gpuAvailable()) {
    std::printf("no CUDA device: skipped\n");
    return;
  }
  TempDir dir;
  Database::load(dir / "db", {dataFile("watdiv/sf1.nt.zst")});
  GraphStore store(dir / "db");
  auto cpu = engine::makeCpuExecutor();
  engine::GpuOptions general;
  general.fuseLightSteps = false;  // a fused light count makes its few rows instead
  auto gpu = engine::makeFallbackExecutor(engine::makeGpuExecutor(general), *cpu);
  size_t withLeaves = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dataFile("watdiv/sf1/queries"))) {
    const std::string query = countingQuery(readText(entry.path()));
    CAPTURE(query);
    for (bool injective : {false, true}) {
      const Counted onCpu = countOn(*cpu, store, query, injective);
      const Counted onGpu = countOn(*gpu, store, query, injective);
      CAPTURE(onGpu.explain);
      CHECK(onGpu.planLeaves == onCpu.planLeaves);
      CHECK(onCpu.leavesCounted == onCpu.planLeaves);
      CHECK(onGpu.leavesCounted == onGpu.planLeaves);
      if (injective) CHECK(onGpu.leavesCounted == 0);
      withLeaves += onGpu.leavesCounted > 1;
    }
  }
  CHECK(withLeaves > 50);
}
