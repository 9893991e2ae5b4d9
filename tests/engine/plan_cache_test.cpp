// Kept BGP plans (engine/optimizer/plan_cache.h): a BGP planned once per
// snapshot and setup while it stays among the recent ones; another constant,
// another constant (in a large set too), another use of its rows or another
// setup is planned again; the answers are the same either way.
#include <doctest/doctest.h>

#include <atomic>
#include <string>

#include "engine/cpu/cpu_executor.h"
#include "engine/optimizer/join_orderer.h"
#include "engine/optimizer/plan_cache.h"
#include "engine/query/query_runner.h"
#include "gsparql/database.h"
#include "parser/parse.h"
#include "storage/graph_store.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

// The statistics' plans, counted.
class CountingOrderer final : public engine::JoinOrderer {
 public:
  explicit CountingOrderer(std::atomic<int>& plans) : plans_(plans) {}

 private:
  engine::BgpPlan planFor(const engine::BoundBgp& bgp, const Catalog& catalog, engine::PlanUse use) const override {
    ++plans_;
    return statistics_->plan(bgp, catalog, use);
  }

  std::atomic<int>& plans_;
  std::unique_ptr<engine::JoinOrderer> statistics_ = engine::makeStatisticsOrderer();
};

struct Fixture {
  TempDir dir;
  std::unique_ptr<GraphStore> store;
  engine::BgpPlanCache cache{16};
  std::atomic<int> plans = 0;

  Fixture() {
    std::string nt;
    for (int i = 0; i < 300; ++i) {
      nt += "<http://e/s" + std::to_string(i) + "> <http://e/p> <http://e/o" + std::to_string(i % 30) + "> .\n";
      nt += "<http://e/o" + std::to_string(i % 30) + "> <http://e/q> \"" + std::to_string(i) + "\" .\n";
    }
    writeFile(dir / "g.nt", nt);
    Database::load(dir / "db", {(dir / "g.nt").string()});
    store = std::make_unique<GraphStore>(dir / "db");
  }

  // Rows of `query` on the CPU executor, planned through the cache under `setup`.
  engine::Table rows(const std::string& query, const std::string& setup = "a") {
    auto orderer = engine::withPlanCache(std::make_unique<CountingOrderer>(plans), cache, setup);
    return run(query, *orderer);
  }
  // ... planned by the statistics alone.
  engine::Table uncachedRows(const std::string& query) { return run(query, *engine::makeStatisticsOrderer()); }

 private:
  engine::Table run(const std::string& query, const engine::JoinOrderer& orderer) {
    auto cpu = engine::makeCpuExecutor();
    return engine::runQuery(sparql::parseQuery(query), *store, *cpu, orderer, {}).rows;
  }
};

const std::string kJoin = "SELECT * { ?s <http://e/p> ?o . ?o <http://e/q> ?v }";

void checkSameRows(const engine::Table& a, const engine::Table& b) {
  REQUIRE(a.width() == b.width());
  CHECK(a.rows == b.rows);
  for (size_t c = 0; c < a.width(); ++c) {
    for (size_t r = 0; r < a.rows && r < b.rows; ++r) CHECK(a.at(r, c) == b.at(r, c));
  }
}

}  // namespace

TEST_CASE("a BGP is planned once, and the kept plan gives the same rows") {
  Fixture f;
  const engine::Table expected = f.uncachedRows(kJoin);
  CHECK(expected.rows > 300);
  checkSameRows(f.rows(kJoin), expected);
  CHECK(f.plans == 1);
  checkSameRows(f.rows(kJoin), expected);
  // Other variable names, the same BGP: the same plan.
  f.rows("SELECT * { ?x <http://e/p> ?y . ?y <http://e/q> ?z }");
  CHECK(f.plans == 1);
  CHECK(f.cache.size() == 1);
}

TEST_CASE("another constant, use of the rows or setup is planned again") {
  Fixture f;
  f.rows("SELECT * { <http://e/s1> <http://e/p> ?o . ?o <http://e/q> ?v }");
  CHECK(f.plans == 1);
  const std::string other = "SELECT * { <http://e/s2> <http://e/p> ?o . ?o <http://e/q> ?v }";
  checkSameRows(f.rows(other), f.uncachedRows(other));
  CHECK(f.plans == 2);
  f.rows("SELECT (COUNT(*) AS ?n) { ?s <http://e/p> ?o . ?o <http://e/q> ?v }");  // counted: PlanUse::Count
  CHECK(f.plans == 3);
  f.rows(kJoin, "another setup");
  f.rows(kJoin);
  CHECK(f.plans == 5);
}

TEST_CASE("a BGP limited to many constants is kept by them: the same set again is not planned, another is") {
  Fixture f;
  auto limitedTo = [](int first, int last) {
    std::string values = "VALUES ?s {";
    for (int i = first; i < last; ++i) values += " <http://e/s" + std::to_string(i) + ">";
    return "SELECT * { " + values + " } ?s <http://e/p> ?o . ?o <http://e/q> ?v }";
  };
  const std::string query = limitedTo(0, 290);
  const engine::Table expected = f.uncachedRows(query);
  checkSameRows(f.rows(query), expected);
  checkSameRows(f.rows(query), expected);
  CHECK(f.plans == 1);
  // One constant fewer, and the same count of others: planned again.
  for (const std::string& other : {limitedTo(0, 289), limitedTo(10, 300)}) {
    checkSameRows(f.rows(other), f.uncachedRows(other));
  }
  CHECK(f.plans == 3);
  CHECK(f.cache.size() == 3);
}
