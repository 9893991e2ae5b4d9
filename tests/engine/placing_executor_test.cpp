// --backend auto's placement (engine/placement/placing_executor.h): each BGP runs on
// the executor the cost model prices lower; here two CPU executors under
// other names stand in, and a model where the "GPU" costs a fixed 1 ms and
// the "CPU" 1 us per row.
#include <doctest/doctest.h>

#include "engine/bgp/executor.h"
#include "engine/cpu/cpu_executor.h"
#include "engine/optimizer/cost_model.h"
#include "engine/optimizer/join_orderer.h"
#include "engine/physical/bgp_leaf.h"
#include "engine/placement/placing_executor.h"
#include "engine/query/query_runner.h"
#include "gsparql/database.h"
#include "parser/parse.h"
#include "storage/graph_store.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

// A CPU executor under another name, which counts the BGPs it ran.
class NamedExecutor final : public engine::Executor {
 public:
  explicit NamedExecutor(std::string name) : name_(std::move(name)) {}
  std::string name() const override { return name_; }
  engine::IdColumns execute(const engine::BgpPlan& plan, const engine::BoundBgp& bgp, const GraphStore& store,
                            const engine::BgpCall& options, engine::ExecutionProfile& profile) override {
    ++ran;
    return cpu_->execute(plan, bgp, store, options, profile);
  }
  uint64_t bytesToCopy(const engine::BgpPlan&, const engine::BoundBgp&, const GraphStore&) override {
    ++copiesAsked;
    return copies;
  }
  int ran = 0;
  uint64_t copies = 0;  // what it says it would copy before running a BGP
  int copiesAsked = 0;

 private:
  std::string name_;
  std::unique_ptr<engine::Executor> cpu_ = engine::makeCpuExecutor();
};

// 3,000 subjects with <p> over 3 objects, `more` triples, and auto over
// "small" and "large" under the model above.
struct Placing {
  explicit Placing(const std::string& more) {
    std::string nt = more;
    for (int i = 0; i < 3000; ++i) {
      nt += "<http://e/s" + std::to_string(i) + "> <http://e/p> <http://e/o" + std::to_string(i % 3) + "> .\n";
    }
    writeFile(dir / "data.nt", nt);
    Database::load(dir / "db", {(dir / "data.nt").string()});
  }
  static CostModel testModel() {
    CostModel model;
    model.cpu.perRow = 1;
    model.gpu.perBgp = 1000;
    model.measuredOn = "test";
    return model;
  }
  // The "GPU" says it would copy `bytes` to its device first, at 1 ms per MB.
  void copying(uint64_t bytes) {
    model.gpu.perCopiedMegabyte = 1000;
    placing = engine::makePlacingExecutor(cpu, gpu, model);
    gpu.copies = bytes;
  }
  TempDir dir;
  CostModel model = testModel();
  NamedExecutor cpu{"small"}, gpu{"large"};
  std::unique_ptr<engine::Executor> placing = engine::makePlacingExecutor(cpu, gpu, model);
};

}  // namespace

TEST_CASE("auto places each BGP on the executor its cost model prices lower, and says so") {
  Placing p("<http://e/s0> <http://e/q> <http://e/o0> .\n");
  GraphStore store(p.dir / "db");
  NamedExecutor &cpu = p.cpu, &gpu = p.gpu;
  auto& placing = p.placing;
  auto orderer = engine::makeSamplingOrderer(store, {.walks = 128, .seed = 1}, {defaultCostModel().cpu});
  auto run = [&](const std::string& query) {
    const auto outcome = engine::runQuery(sparql::parseQuery(query), store, *placing, *orderer, {});
    return std::pair(outcome.rows.rows, engine::executorNotes(*outcome.plan));
  };
  const auto [fewRows, fewNote] = run("SELECT * { <http://e/s0> <http://e/q> ?o }");
  CHECK(fewRows == 1);
  CHECK(cpu.ran == 1);
  CHECK(gpu.ran == 0);
  CHECK(fewNote.find("placed on the small executor: estimated 0.002 ms on the CPU, 1 ms on the GPU (cost model: test)") !=
        std::string::npos);
  const auto [manyRows, manyNote] = run("SELECT * { ?s <http://e/p> ?o }");  // 3,003 rows over its steps: 3 ms
  CHECK(manyRows == 3000);
  CHECK(gpu.ran == 1);
  CHECK(manyNote.find("placed on the large executor: estimated 3 ms on the CPU, 1 ms on the GPU") != std::string::npos);
}

TEST_CASE("auto prices a count without the rows of the steps it multiplies") {
  // Counting ?s per ?o multiplies the neighbour counts of 3 rows; making
  // the rows makes 3,000.
  Placing p("");
  GraphStore store(p.dir / "db");
  const CostModel& model = p.model;
  auto& placing = p.placing;
  auto orderer = engine::makeStatisticsOrderer();
  const auto counted = engine::runQuery(sparql::parseQuery("SELECT (COUNT(*) AS ?n) { ?s <http://e/p> ?o }"), store,
                                        *placing, *orderer, {});
  const engine::BgpLeaf* leaf = engine::firstBgpLeaf(*counted.plan);
  REQUIRE(leaf != nullptr);
  const engine::ComponentPlan& plan = leaf->plan().components.at(0);
  REQUIRE(plan.steps.size() == 2);
  CHECK(plan.countedLeavesFrom == 1);  // ?o's 3 rows, then ?s multiplied
  CHECK(engine::countCost(model.cpu, leaf->plan()) == doctest::Approx(3));
  CHECK(engine::planCost(model.cpu, leaf->plan()) == doctest::Approx(3003).epsilon(0.05));
  CHECK(engine::executorNotes(*counted.plan).find("placed on the small executor") != std::string::npos);
  const auto rows = engine::runQuery(sparql::parseQuery("SELECT * { ?s <http://e/p> ?o }"), store, *placing, *orderer, {});
  CHECK(rows.rows.rows == 3000);
  CHECK(engine::executorNotes(*rows.plan).find("placed on the large executor") != std::string::npos);
}

TEST_CASE("auto prices what the GPU would copy to its device first") {
  // 3,000 rows: 3 ms on the "CPU", 1 ms on the "GPU" holding the adjacency;
  // with 3 MB to copy at 1 ms per MB, 4 ms.
  Placing p("");
  GraphStore store(p.dir / "db");
  p.copying(3'000'000);
  auto orderer = engine::makeStatisticsOrderer();
  const auto query = sparql::parseQuery("SELECT * { ?s <http://e/p> ?o }");
  const auto cold = engine::runQuery(query, store, *p.placing, *orderer, {});
  CHECK(cold.rows.rows == 3000);
  CHECK(p.cpu.ran == 1);
  CHECK(engine::executorNotes(*cold.plan).find("placed on the small executor: estimated 3 ms on the CPU, 4 ms on the GPU, "
                                               "3 MB to copy to it first") != std::string::npos);
  p.gpu.copies = 0;  // it holds the adjacency now
  const auto warm = engine::runQuery(query, store, *p.placing, *orderer, {});
  CHECK(warm.rows.rows == 3000);
  CHECK(p.gpu.ran == 1);
  CHECK(engine::executorNotes(*warm.plan).find("to copy") == std::string::npos);
}

TEST_CASE("auto pays for copies once the savings it passed up reach their cost (rent or buy)") {
  // 3,000 rows: 3 ms on the "CPU", 1 ms on the "GPU" once it holds the
  // adjacency, which costs 3 ms to copy. Each BGP run on the CPU for its
  // copies passes up 2 ms (2.003: the CPU also pays for the 3 rows of the
  // first step); the second pays for them.
  Placing p("");
  GraphStore store(p.dir / "db");
  p.copying(3'000'000);
  auto orderer = engine::makeStatisticsOrderer();
  auto noteOf = [&](const std::string& query) {
    const auto outcome = engine::runQuery(sparql::parseQuery(query), store, *p.placing, *orderer, {});
    return engine::executorNotes(*outcome.plan);
  };
  const std::string many = "SELECT * { ?s <http://e/p> ?o }", few = "SELECT * { ?s <http://e/p> <http://e/o0> }";
  // One row: the GPU's run alone costs more, so its copies are not asked for.
  CHECK(noteOf("SELECT * { <http://e/s0> <http://e/p> ?o }").find("placed on the small executor") != std::string::npos);
  CHECK(p.gpu.copiesAsked == 0);
  CHECK(noteOf(few).find("placed on the small executor") != std::string::npos);  // slower on the GPU: nothing passed up
  CHECK(noteOf(many).find("placed on the small executor: estimated 3 ms on the CPU, 4 ms on the GPU") != std::string::npos);
  CHECK(p.gpu.ran == 0);
  const std::string paid = noteOf(many);
  CAPTURE(paid);
  CHECK(p.gpu.ran == 1);
  CHECK(paid.find("placed on the large executor: estimated 3 ms on the CPU, 4 ms on the GPU, 3 MB to copy to it first, "
                  "paid by 4.01 ms the GPU would have saved on BGPs run on the CPU for their copies") != std::string::npos);
  CHECK(noteOf(many).find("placed on the small executor") != std::string::npos);  // the savings start again from 0
  CHECK(p.cpu.ran == 4);
}
