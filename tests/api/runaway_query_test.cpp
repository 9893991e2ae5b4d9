// Queries that would run for ever or take all memory stop: LIMIT and ASK
// stop the work once they have their rows, a timeout and a memory budget end
// the rest with a clear error, and the database answers the next query.
#include <doctest/doctest.h>

#include <string>

#include "gsparql/database.h"
#include "gsparql/error.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

// 3,000 triples: a cross product of two triple patterns has 9 million rows
// (216 MB as 32-bit ids of 6 columns), far beyond the budgets used below.
struct CrossProductFixture {
  TempDir dir;
  std::optional<Database> db;
  CrossProductFixture() {
    std::string text;
    for (int i = 0; i < 3000; ++i) {
      text += "<http://e/s" + std::to_string(i) + "> <http://e/p" + std::to_string(i % 7) + "> \"" +
              std::to_string(i) + "\" .\n";
    }
    writeFile(dir / "data.nt", text);
    Database::load(dir / "db", {(dir / "data.nt").string()});
    db.emplace(dir / "db");
  }
  QueryResult query(const std::string& text, QueryOptions options = {}) const {
    options.backend = Backend::Cpu;
    return db->query(text, options);
  }
};

QueryOptions budget(uint64_t bytes) {
  QueryOptions options;
  options.memoryBudgetBytes = bytes;
  return options;
}

}  // namespace

TEST_CASE("ASK and LIMIT over a cross product stop at their rows, within a budget the product would burst") {
  CrossProductFixture f;
  const QueryOptions small = budget(4 << 20);
  QueryResult ask = f.query("ASK { ?a ?b ?c . ?d ?e ?f }", small);
  CHECK(ask.booleanValue());
  CHECK(ask.explain().find("stops at 1 row(s)") != std::string::npos);
  CHECK(f.query("SELECT * { ?a ?b ?c . ?d ?e ?f } LIMIT 10", small).rowCount() == 10);
  CHECK(f.query("SELECT * { ?a ?b ?c . ?d ?e ?f } OFFSET 5 LIMIT 10", small).rowCount() == 10);
  CHECK(f.query("SELECT ?a { { ?a ?b ?c . ?d ?e ?f } UNION { ?a ?b ?c } } LIMIT 3", small).rowCount() == 3);
}

TEST_CASE("a LIMIT over a single pattern stops depth-first, with the same rows as without the limit") {
  CrossProductFixture f;
  const auto all = f.query("SELECT ?s ?o { ?s <http://e/p3> ?o }").rows();
  const auto first = f.query("SELECT ?s ?o { ?s <http://e/p3> ?o } LIMIT 7", budget(1 << 20)).rows();
  REQUIRE(first.size() == 7);
  CHECK(std::equal(first.begin(), first.end(), all.begin()));
}

TEST_CASE("a query past its memory budget stops with an error that names the budget, and the next query runs") {
  CrossProductFixture f;
  try {
    f.query("SELECT * { ?a ?b ?c . ?d ?e ?f }", budget(8 << 20));
    FAIL("the cross product fitted 8 MiB");
  } catch (const QueryOutOfMemory& e) {
    CHECK(std::string(e.what()).find("memory budget of 8 MiB") != std::string::npos);
  }
  CHECK_THROWS_AS(f.query("SELECT (COUNT(DISTINCT *) AS ?n) { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }", budget(8 << 20)),
                  QueryOutOfMemory);
  // Counted without rows (BgpCount), the same product fits, and so do the
  // distinct values of one variable (marked in one component, the others
  // only asked for a row).
  CHECK(countOf(f.query("SELECT (COUNT(*) AS ?n) { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }", budget(8 << 20))) ==
        27000000000ull);
  CHECK(countOf(f.query("SELECT (COUNT(DISTINCT ?c) AS ?n) { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }", budget(8 << 20))) ==
        countOf(f.query("SELECT (COUNT(DISTINCT ?c) AS ?n) { ?a ?b ?c FILTER(true) }", budget(8 << 20))));
  CHECK(f.query("SELECT ?s { ?s <http://e/p1> ?o }", budget(8 << 20)).rowCount() == 429);
}

TEST_CASE("a query past its timeout stops with QueryTimedOut") {
  CrossProductFixture f;
  QueryOptions options;
  // 9 million rows, each filtered, take longer than that (a COUNT(DISTINCT ?c) of the product did not, once
  // planned: it counts ?c's values in one component and asks the other for a row).
  options.timeout = std::chrono::milliseconds(1);
  try {
    f.query("SELECT (COUNT(*) AS ?n) { ?a ?b ?c . ?d ?e ?f FILTER(?c != ?f) }", options);
    FAIL("9 million rows were filtered within 1 ms");
  } catch (const QueryTimedOut& e) {
    CHECK(std::string(e.what()) == "query timed out after 0.001 s (the time limit)");
  }
  options.timeout = std::chrono::seconds(600);
  CHECK(f.query("SELECT ?s { ?s <http://e/p1> ?o }", options).rowCount() == 429);
}

TEST_CASE("a product of path scans, joined without a shared variable, stops at its timeout") {
  // One left row meets every right row here (the query fuzzer's timeouts):
  // the join checks for a stop while it probes, not only between batches.
  CrossProductFixture f;
  QueryOptions options;
  options.timeout = std::chrono::milliseconds(1);
  CHECK_THROWS_AS(f.query("SELECT (COUNT(*) AS ?n) { ?a <http://e/p1>+ ?b . ?c <http://e/p2>* ?d }", options),
                  QueryTimedOut);
}

TEST_CASE("a cancelled cross product stops") {
  CrossProductFixture f;
  std::atomic<bool> cancel{true};
  QueryOptions options;
  options.cancel = &cancel;
  CHECK_THROWS_AS(f.query("SELECT (COUNT(*) AS ?n) { ?a ?b ?c . ?d ?e ?f }", options), QueryCancelled);
}
