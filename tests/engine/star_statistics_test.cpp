// Stars estimated by characteristic sets (engine/optimizer/star_statistics.h)
// where the statistics price a step: exact on a star whose predicates are
// correlated, where each predicate's averages are not.
#include <doctest/doctest.h>

#include <random>

#include "engine/bgp/executor.h"
#include "engine/cpu/cpu_executor.h"
#include "engine/optimizer/join_orderer.h"
#include "engine/optimizer/star_statistics.h"
#include "engine/physical/bgp_leaf.h"
#include "engine/query/query_runner.h"
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

  // The catalog's index by predicate only narrows the sets read: the same
  // estimate without it.
  Catalog unindexed = store.catalog();
  unindexed.setsWithPredicate.clear();
  CHECK(orderer->plan(leaf->bgp(), unindexed).estimatedRows() == doctest::Approx(200));
  const engine::StarStatistics indexed(store.catalog()), scanned(unindexed);
  const uint32_t predicates = static_cast<uint32_t>(store.catalog().predicates.size());
  for (uint32_t required = 0; required < (1u << predicates); ++required) {
    for (uint32_t counted = 0; counted < (1u << predicates); ++counted) {
      std::vector<uint32_t> r, c;
      for (uint32_t p = 0; p < predicates; ++p) {
        if (required & (1u << p)) r.push_back(p);
        if (counted & (1u << p)) c.push_back(p);
      }
      CHECK(indexed.rows(r, c) == doctest::Approx(scanned.rows(r, c)));
      CHECK(indexed.rows(r, c) == doctest::Approx(scanned.rows(r, c)));  // remembered, the same again
    }
  }

  // Without the sets: each predicate's averages, independently.
  Catalog withoutSets = store.catalog();
  withoutSets.characteristicSets.clear();
  const engine::BgpPlan independent = orderer->plan(leaf->bgp(), withoutSets);
  CHECK(independent.estimatedRows() == doctest::Approx(100 * 250.0 / 150));
}

TEST_CASE("merging the predicates' lists of sets gives what reading every set gives, on random catalogs") {
  // Many sets over a few predicates, so that lists are long and far apart in
  // length: the merge gallops over the long ones. Predicates may repeat.
  std::mt19937 random(7);
  for (int round = 0; round < 20; ++round) {
    Catalog catalog;
    catalog.predicates.resize(12);
    for (int s = 0; s < 500; ++s) {
      CharacteristicSet set;
      set.subjects = 1 + random() % 1000;
      for (uint32_t p = 0; p < 12; ++p) {
        if (random() % (p + 2) == 0) set.predicates.emplace_back(p, set.subjects * (1 + random() % 4));
      }
      if (!set.predicates.empty()) catalog.characteristicSets.push_back(std::move(set));
    }
    indexCharacteristicSets(catalog);
    Catalog unindexed = catalog;
    unindexed.setsWithPredicate.clear();
    const engine::StarStatistics indexed(catalog), scanned(unindexed);
    for (int query = 0; query < 50; ++query) {
      std::vector<uint32_t> required, counted;
      for (size_t n = random() % 3; n > 0; --n) required.push_back(random() % 12);
      for (size_t n = random() % 4; n > 0; --n) counted.push_back(random() % 13);  // 12: a predicate no set has
      CAPTURE(required);
      CAPTURE(counted);
      CHECK(indexed.rows(required, counted) == doctest::Approx(scanned.rows(required, counted)));
    }
  }
}
