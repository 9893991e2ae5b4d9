// --backend auto's placement (engine/placing_executor.h): each BGP runs on
// the executor the cost model prices lower; here two CPU executors under
// other names stand in, and a model where the "GPU" costs a fixed 1 ms and
// the "CPU" 1 us per row.
#include <doctest/doctest.h>

#include "engine/executor.h"
#include "engine/join_orderer.h"
#include "engine/physical/bgp_leaf.h"
#include "engine/placing_executor.h"
#include "engine/query_runner.h"
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
  engine::IdTable execute(const engine::BgpPlan& plan, const engine::BoundBgp& bgp, const GraphStore& store,
                          const engine::ExecutionOptions& options, engine::ExecutionProfile& profile) override {
    ++ran;
    return cpu_->execute(plan, bgp, store, options, profile);
  }
  int ran = 0;

 private:
  std::string name_;
  std::unique_ptr<engine::Executor> cpu_ = engine::makeCpuExecutor();
};

}  // namespace

TEST_CASE("auto places each BGP on the executor its cost model prices lower, and says so") {
  TempDir dir;
  std::string nt;
  for (int i = 0; i < 3000; ++i) nt += "<http://e/s" + std::to_string(i) + "> <http://e/p> <http://e/o" + std::to_string(i % 3) + "> .\n";
  nt += "<http://e/s0> <http://e/q> <http://e/o0> .\n";
  writeFile(dir / "data.nt", nt);
  Database::load(dir / "db", {(dir / "data.nt").string()});
  GraphStore store(dir / "db");
  NamedExecutor cpu("small"), gpu("large");
  CostModel model;
  model.cpu.perRow = 1;
  model.gpu.perBgp = 1000;
  model.measuredOn = "test";
  auto placing = engine::makePlacingExecutor(cpu, gpu, model);
  auto orderer = engine::makeSamplingOrderer(store, {.walks = 128, .seed = 1});
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
