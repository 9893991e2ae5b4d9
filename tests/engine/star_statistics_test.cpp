// Stars estimated by characteristic sets (engine/optimizer/star_statistics.h)
// where the statistics price a step: exact on a star whose predicates are
// correlated, where each predicate's averages are not.
#include <doctest/doctest.h>

#include "engine/executor.h"
#include "engine/join_orderer.h"
#include "engine/physical/bgp_leaf.h"
#include "engine/query_runner.h"
#include "gsparql/database.h"
#include "parser/parse.h"
#include "storage/graph_store.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

TEST_CASE("the statistics estimate a star by its characteristic sets, exactly where every set is kept") {
  // 100 subjects with two <p1> and one <p2>, 50 with one <p1> only: of the
  // subjects with <p2>, each has two <p1>, while <p1>'s average is 250/150.
  TempDir dir;
  std::string nt;
  for (int i = 0; i < 150; ++i) {
    const std::string s = "<http://e/s" + std::to_string(i) + ">";
    nt += s + " <http://e/p1> <http://e/b> .\n";
    if (i < 100) nt += s + " <http://e/p1> <http://e/a" + std::to_string(i) + "> .\n" + s + " <http://e/p2> \"x\" .\n";
  }
  writeFile(dir / "g.nt", nt);
  Database::load(dir / "db", {(dir / "g.nt").string()});
  GraphStore store(dir / "db");
  const auto cpu = engine::makeCpuExecutor();
  const auto orderer = engine::makeStatisticsOrderer();
  const auto outcome = engine::runQuery(
      sparql::parseQuery("SELECT * { ?s <http://e/p1> ?a . ?s <http://e/p2> ?b }"), store, *cpu, *orderer, {});
  CHECK(outcome.rows.rows == 200);
  const engine::BgpLeaf* leaf = engine::firstBgpLeaf(*outcome.plan);
  REQUIRE(leaf != nullptr);
  CHECK(leaf->plan().estimatedRows() == doctest::Approx(200));

  // Without the sets: each predicate's averages, independently.
  Catalog withoutSets = store.catalog();
  withoutSets.characteristicSets.clear();
  const engine::BgpPlan independent = orderer->plan(leaf->bgp(), withoutSets);
  CHECK(independent.estimatedRows() == doctest::Approx(100 * 250.0 / 150));
}
