// The one placer of what the GPU declines (engine/placement/fallback_executor.h):
// a stand-in "GPU" declines calls as the GPU executor does (ExecutorDeclined,
// before any work or after its device ran out of memory), and the CPU
// executor answers them, the note saying why in EXPLAIN's words.
#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <set>

#include "engine/bgp/executor.h"
#include "engine/cpu/cpu_executor.h"
#include "engine/optimizer/join_orderer.h"
#include "engine/optimizer/walk_estimator.h"
#include "engine/physical/bgp_leaf.h"
#include "engine/placement/fallback_executor.h"
#include "engine/placement/placing_executor.h"
#include "engine/query/query_runner.h"
#include "gsparql/database.h"
#include "parser/parse.h"
#include "storage/graph_store.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

// Walks that always decline, as the GPU's do where the plans' adjacency
// would not fit its cache.
class DecliningWalks final : public engine::WalkEstimator {
 public:
  std::string name() const override { return "gpu"; }
  uint32_t defaultWalks() const override { return 7; }
  std::vector<std::vector<engine::StepEstimate>> walkBatch(std::span<const engine::ComponentPlan>,
                                                           const engine::BoundBgp&, const GraphStore&,
                                                           const engine::WalkOptions&) override {
    throw engine::ExecutorDeclined("no room for walks", engine::ExecutorDeclined::When::BeforeWork);
  }
};

// The CPU executor standing in for the GPU: it declines every call whose
// plan has a component of `declineFrom` steps or more (as a device out of
// memory, after noting what it did so far, where `when` says so), and runs
// the others, counting them. Its counts and cursors are execute()'s.
class DecliningExecutor final : public engine::Executor {
 public:
  std::string name() const override { return "gpu"; }
  engine::WalkEstimator* walkEstimator() override { return &walks_; }
  engine::IdColumns execute(const engine::BgpPlan& plan, const engine::BoundBgp& bgp, const GraphStore& store,
                            const engine::BgpCall& options, engine::ExecutionProfile& profile) override {
    for (const engine::ComponentPlan& component : plan.components) {
      if (component.steps.size() < declineFrom) continue;
      if (when == engine::ExecutorDeclined::When::OutOfMemory) profile.note = "half done";
      throw engine::ExecutorDeclined("no room for " + std::to_string(component.steps.size()) + " steps", when);
    }
    ++ran;
    return cpu_->execute(plan, bgp, store, options, profile);
  }

  size_t declineFrom = SIZE_MAX;
  engine::ExecutorDeclined::When when = engine::ExecutorDeclined::When::BeforeWork;
  int ran = 0;

 private:
  std::unique_ptr<engine::Executor> cpu_ = engine::makeCpuExecutor();
  DecliningWalks walks_;
};

// 30 subjects with <p> over 3 objects, 4 paths of two <q> edges, and the
// "GPU" (declining plans of 3 steps or more) falling back on the CPU.
struct Fallback {
  Fallback() {
    std::string nt;
    for (int i = 0; i < 30; ++i) {
      nt += "<http://e/s" + std::to_string(i) + "> <http://e/p> <http://e/o" + std::to_string(i % 3) + "> .\n";
    }
    for (int i = 0; i < 4; ++i) {
      const std::string n = std::to_string(i);
      nt += "<http://e/a" + n + "> <http://e/q> <http://e/b" + n + "> .\n";
      nt += "<http://e/b" + n + "> <http://e/q> <http://e/c" + n + "> .\n";
    }
    writeFile(dir / "data.nt", nt);
    Database::load(dir / "db", {(dir / "data.nt").string()});
    store.emplace(dir / "db");
    gpu->declineFrom = 3;
  }

  // The query's outcome on `executor`, and its executors' notes.
  std::pair<engine::QueryOutcome, std::string> run(engine::Executor& executor, const std::string& query) {
    engine::QueryOutcome outcome = engine::runQuery(sparql::parseQuery(query), *store, executor, *orderer, {});
    std::string notes = engine::executorNotes(*outcome.plan);
    return {std::move(outcome), std::move(notes)};
  }

  // The BGP of `query` as planned for the CPU executor (a count's plan for a count).
  const engine::BgpLeaf& planned(const std::string& query) {
    plans.push_back(run(*cpu, query).first.plan);
    return *engine::firstBgpLeaf(*plans.back());
  }

  TempDir dir;
  std::optional<GraphStore> store;
  std::unique_ptr<engine::Executor> cpu = engine::makeCpuExecutor();
  std::unique_ptr<DecliningExecutor> owned = std::make_unique<DecliningExecutor>();
  DecliningExecutor* gpu = owned.get();
  std::unique_ptr<engine::Executor> fallback = engine::makeFallbackExecutor(std::move(owned), *cpu);
  std::unique_ptr<engine::JoinOrderer> orderer = engine::makeStatisticsOrderer();
  std::vector<std::shared_ptr<engine::Operator>> plans;
};

// The column of the vertex variable `name`.
uint32_t columnOf(const engine::BoundBgp& bgp, const std::string& name) {
  for (uint32_t c = 0; c < bgp.vertices.size(); ++c) {
    if (bgp.vertices[c].name == name) return c;
  }
  FAIL("no vertex " << name);
  return 0;
}

const std::string kStar = "SELECT * { ?s <http://e/p> ?o }";                        // 2 steps, 30 rows
const std::string kPath = "SELECT * { ?a <http://e/q> ?b . ?b <http://e/q> ?c }";  // 3 steps, 4 rows
const std::string kBoth = "SELECT (COUNT(*) AS ?n) { ?s <http://e/p> ?o . ?a <http://e/q> ?b . ?b <http://e/q> ?c }";

}  // namespace

TEST_CASE("what the GPU declines runs on the CPU executor, and the note says why") {
  Fallback f;
  const auto [star, starNote] = f.run(*f.fallback, kStar);
  CHECK(star.rows.rows == 30);
  CHECK(f.gpu->ran == 1);
  CHECK(starNote.find("on the CPU executor") == std::string::npos);
  const auto [path, pathNote] = f.run(*f.fallback, kPath);
  CHECK(path.rows.rows == 4);
  CHECK(f.gpu->ran == 1);
  CHECK(pathNote == "ran on the CPU executor: no room for 3 steps\n");
  CHECK(f.fallback->name() == "gpu");
}

TEST_CASE("a cursor the GPU declines hands out the CPU executor's rows") {
  Fallback f;
  const engine::BgpLeaf& leaf = f.planned(kPath);
  engine::BgpCall streaming;
  streaming.streamRows = true;
  engine::ExecutionProfile profile;
  const auto cursor = f.fallback->open(leaf.plan(), leaf.bgp(), *f.store, streaming, profile);
  size_t rows = 0;
  while (const auto batch = cursor->next()) rows += batch->rows();
  CHECK(rows == 4);
  CHECK(f.gpu->ran == 0);
  CHECK(profile.note == "ran on the CPU executor: no room for 3 steps");
}

TEST_CASE("a count the GPU declines is counted on the CPU executor a component at a time") {
  Fallback f;
  const engine::BgpLeaf& leaf = f.planned(kBoth);
  REQUIRE(leaf.plan().components.size() == 2);
  engine::ExecutionProfile profile;
  CHECK(f.fallback->count(leaf.plan(), leaf.bgp(), *f.store, {}, profile) == 30 * 4);
  CHECK(f.gpu->ran == 1);  // the star, on the "GPU"
  CHECK(profile.note == "counted on the CPU executor: no room for 3 steps");
  std::set<uint32_t> components;  // the steps of each, numbered as in the whole plan
  for (const engine::StepProfile& step : profile.steps) components.insert(step.component);
  CHECK(components == std::set<uint32_t>{0, 1});
  // COUNT(DISTINCT ?o): the path's component needs only a row, found on the
  // CPU; the star's ?o are counted on the "GPU".
  engine::ExecutionProfile distinct;
  CHECK(f.fallback->countDistinct(leaf.plan(), leaf.bgp(), *f.store, {}, distinct, columnOf(leaf.bgp(), "o")) == 3);
  CHECK(f.gpu->ran == 2);
  CHECK(distinct.note.find("on the CPU executor") == std::string::npos);
}

TEST_CASE("after the GPU ran out of memory the CPU executor runs the call from a fresh profile") {
  Fallback f;
  f.gpu->when = engine::ExecutorDeclined::When::OutOfMemory;
  const auto [path, pathNote] = f.run(*f.fallback, kPath);
  CHECK(path.rows.rows == 4);
  CHECK(pathNote == "ran on the CPU executor: no room for 3 steps\n");
  const engine::BgpLeaf& leaf = f.planned(kBoth);
  engine::ExecutionProfile profile;
  CHECK(f.fallback->count(leaf.plan(), leaf.bgp(), *f.store, {}, profile) == 30 * 4);
  CHECK(profile.note == "ran on the CPU executor: no room for 3 steps");  // not "counted", nor what the GPU noted
}

TEST_CASE("auto places on the GPU, which declines, and the CPU executor runs the BGP") {
  Fallback f;
  CostModel model;  // the "GPU" costs nothing, the CPU 1 ms a BGP
  model.cpu.perBgp = 1000;
  model.measuredOn = "test";
  const auto placing = engine::makePlacingExecutor(*f.cpu, *f.fallback, model);
  const auto [path, note] = f.run(*placing, kPath);
  CHECK(path.rows.rows == 4);
  CHECK(f.gpu->ran == 0);
  // A BgpScan reads a cursor, whose run writes the note afresh (as the GPU's always did).
  CHECK(note == "ran on the CPU executor: no room for 3 steps\n");
  const engine::BgpLeaf& leaf = f.planned(kPath);
  engine::ExecutionProfile profile;
  CHECK(placing->execute(leaf.plan(), leaf.bgp(), *f.store, {}, profile).rows() == 4);
  CHECK(profile.note == "placed on the gpu executor: estimated 1 ms on the CPU, 0 ms on the GPU (cost model: test); "
                        "ran on the CPU executor: no room for 3 steps");
}

TEST_CASE("walks the GPU declines are the CPU's walks") {
  Fallback f;
  const engine::BgpLeaf& leaf = f.planned(kPath);
  engine::WalkEstimator* walks = f.fallback->walkEstimator();
  REQUIRE(walks != nullptr);
  CHECK(walks->name() == "gpu");
  CHECK(walks->defaultWalks() == 7);
  const engine::WalkOptions options{.walks = 64, .seed = 3};
  const auto onGpu = walks->walkBatch(leaf.plan().components, leaf.bgp(), *f.store, options);
  const auto onCpu = engine::makeCpuWalkEstimator()->walkBatch(leaf.plan().components, leaf.bgp(), *f.store, options);
  REQUIRE(onGpu.size() == onCpu.size());
  for (size_t p = 0; p < onGpu.size(); ++p) {
    REQUIRE(onGpu[p].size() == onCpu[p].size());
    for (size_t s = 0; s < onGpu[p].size(); ++s) {
      CHECK(onGpu[p][s].rows == onCpu[p][s].rows);
      CHECK(onGpu[p][s].survivors == onCpu[p][s].survivors);
    }
  }
}
