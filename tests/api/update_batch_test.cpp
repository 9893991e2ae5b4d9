// Update batches (gsparql/update_batch.h): several requests in one write
// transaction, each applied on its own as if they ran one after another,
// those that succeed written as one delta file; the snapshot the batch
// leaves reads as the directory opened again.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <regex>
#include <sstream>

#include "gsparql/update_batch.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

std::vector<std::string> sortedDumpOf(const Database& db) {
  std::ostringstream out;
  db.dump(out);
  std::vector<std::string> lines;
  std::istringstream in(out.str());
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

// A database of one triple, <http://e/a> <http://e/p> <http://e/b>.
std::filesystem::path smallDatabase(const TempDir& work) {
  writeFile(work / "base.nt", "<http://e/a> <http://e/p> <http://e/b> .\n");
  Database::load(work / "db", {(work / "base.nt").string()});
  return work / "db";
}

struct SmallDatabase {
  TempDir work;
  const std::filesystem::path db = smallDatabase(work);
};

// By predicate and graph: ids may differ between a snapshot extended request
// by request and one that read the delta files at once.
std::map<std::string, PredicateStatistics> predicateStatistics(const DatabaseStatistics& statistics) {
  std::map<std::string, PredicateStatistics> byName;
  for (const NamedPredicateStatistics& p : statistics.predicates) byName[p.predicate + " " + p.graph] = p.statistics;
  return byName;
}

// The dump of smallDatabase() with one more triple, which sorts after its own.
std::vector<std::string> baseAnd(const std::string& line) {
  return {"<http://e/a> <http://e/p> <http://e/b> .", line};
}

uint64_t count(const Database& db, const std::string& pattern) {
  return countOf(db.query("SELECT (COUNT(*) AS ?n) { " + pattern + " }"));
}

// The summaries of a batch's requests, as the calls that made them durable returned them.
std::vector<UpdateSummary> applyAll(UpdateBatch& batch, const std::vector<std::string>& requests) {
  std::vector<UpdateSummary> summaries;
  for (const std::string& request : requests) {
    for (UpdateSummary& s : batch.apply(request)) summaries.push_back(s);
  }
  for (UpdateSummary& s : batch.commit()) summaries.push_back(s);
  return summaries;
}

}  // namespace

TEST_CASE_FIXTURE(SmallDatabase, "a batch applies each request on what those before left, and writes them as one delta file") {
  const std::vector<std::string> requests{
      "INSERT DATA { <http://e/c> <http://e/p> <http://e/d> }",
      // Reads what the first one inserted.
      "DELETE { ?s <http://e/p> <http://e/d> } INSERT { ?s <http://e/q> <http://e/d> } WHERE { ?s <http://e/p> <http://e/d> }",
      "INSERT DATA { <http://e/x> <http://e/p> <http://e/y> }",
      "DELETE DATA { <http://e/x> <http://e/p> <http://e/y> }"};
  UpdateBatch batch(db);
  const std::vector<UpdateSummary> summaries = applyAll(batch, requests);
  REQUIRE(summaries.size() == 4);
  const std::vector<std::pair<uint64_t, uint64_t>> counts{{1, 2}, {2, 2}, {2, 3}, {3, 2}};
  for (size_t i = 0; i < summaries.size(); ++i) {
    CAPTURE(i);
    CHECK(summaries[i].changed);
    CHECK(summaries[i].operations == 1);
    CHECK(std::pair(summaries[i].triplesBefore, summaries[i].triplesAfter) == counts[i]);
    CHECK(summaries[i].snapshot() == "generation 1 + delta file 1");
  }
  CHECK(std::filesystem::exists(db / "gen-000001" / "delta-000001"));
  CHECK_FALSE(std::filesystem::exists(db / "gen-000001" / "delta-000002"));

  // The same requests one after another through Database::update.
  TempDir other;
  const auto one = smallDatabase(other);
  for (const std::string& request : requests) Database::update(one, request);
  CHECK(sortedDump(db) == sortedDump(one));
  CHECK(sortedDump(db) == baseAnd("<http://e/c> <http://e/q> <http://e/d> ."));
}

TEST_CASE_FIXTURE(SmallDatabase, "a request of a batch that fails leaves no trace, and the others go on") {
  UpdateBatch batch(db);
  std::vector<UpdateSummary> summaries = batch.apply("INSERT DATA { <http://e/1> <http://e/p> 1 }");
  CHECK_THROWS_AS(batch.apply("INSERT DATA { <http://e/2> <http://e/p> 2 "), QueryError);  // a syntax error
  // An operation that fails after a change of its own: neither is applied.
  CHECK_THROWS_AS(batch.apply("INSERT DATA { <http://e/3> <http://e/p> 3 } ; DROP GRAPH <http://e/none>"), QueryError);
  UpdateOptions tight;
  tight.query.memoryBudgetBytes = 1;
  CHECK_THROWS_AS(batch.apply("INSERT { ?s <http://e/p> 4 } WHERE { ?s ?p ?o }", tight), QueryOutOfMemory);
  // A LOAD that fails, which would have needed a new generation.
  CHECK_THROWS(batch.apply("INSERT DATA { <http://e/6> <http://e/p> 6 } ; LOAD <file:///no/such/file.nt>"));
  for (UpdateSummary& s : batch.apply("INSERT DATA { <http://e/5> <http://e/p> 5 }")) summaries.push_back(s);
  for (UpdateSummary& s : batch.commit()) summaries.push_back(s);
  REQUIRE(summaries.size() == 2);
  CHECK(summaries[0].triplesAfter == 2);
  CHECK(summaries[1].triplesBefore == 2);
  CHECK(summaries[1].triplesAfter == 3);
  const Database after(db);
  CHECK(count(after, "?s <http://e/p> ?o") == 3);
  CHECK(count(after, "?s <http://e/p> 3") == 0);
  CHECK(count(after, "?s <http://e/p> 4") == 0);
  CHECK(count(after, "?s <http://e/p> 6") == 0);
}

TEST_CASE_FIXTURE(SmallDatabase, "a request of a batch that needs a new generation has those before it written first") {
  writeFile(work / "more.nt", "<http://e/m> <http://e/p> <http://e/n> .\n");
  UpdateBatch batch(db);
  CHECK(batch.apply("INSERT DATA { <http://e/1> <http://e/p> 1 }").empty());  // held
  const std::vector<UpdateSummary> durable = batch.apply("LOAD <file://" + (work / "more.nt").string() + ">");
  REQUIRE(durable.size() == 2);  // the one before and the LOAD
  CHECK(durable[0].snapshot() == "generation 1 + delta file 1");
  CHECK(durable[1].snapshot() == "generation 2");
  CHECK(durable[1].triplesAfter == 3);
  CHECK(batch.apply("DELETE DATA { <http://e/1> <http://e/p> 1 }").empty());
  const std::vector<UpdateSummary> last = batch.commit();
  REQUIRE(last.size() == 1);
  CHECK(last[0].snapshot() == "generation 2 + delta file 1");
  const Database snapshot = batch.snapshot();
  CHECK(snapshot.isLatest());
  CHECK(sortedDumpOf(snapshot) == sortedDump(db));
  CHECK(sortedDump(db) == baseAnd("<http://e/m> <http://e/p> <http://e/n> ."));
}

TEST_CASE_FIXTURE(SmallDatabase, "requests of one batch make blank nodes apart from each other's and from later updates'") {
  UpdateBatch batch(db);
  applyAll(batch, {"INSERT DATA { _:b <http://e/p> 1 }", "INSERT DATA { _:b <http://e/p> 2 }",
                   "INSERT { _:n <http://e/p> ?o } WHERE { ?s <http://e/p> ?o FILTER(isLiteral(?o)) }"});
  Database::update(db, "INSERT DATA { _:b <http://e/p> 3 }");
  CHECK(count(Database(db), "SELECT DISTINCT ?s { ?s <http://e/p> ?o FILTER(isBlank(?s)) }") == 5);
}

TEST_CASE_FIXTURE(SmallDatabase, "without commit a batch applies nothing, and readers keep their snapshot") {
  const auto dump = sortedDump(db);
  const Database reader(db);
  {
    UpdateBatch batch(db);
    batch.apply("INSERT DATA { <http://e/1> <http://e/p> 1 }");
  }
  CHECK(sortedDump(db) == dump);
  CHECK(reader.isLatest());
  UpdateBatch batch(db);
  applyAll(batch, {"INSERT DATA { <http://e/1> <http://e/p> 1 }"});
  CHECK_FALSE(reader.isLatest());
  CHECK(sortedDumpOf(reader) == dump);
}

TEST_CASE_FIXTURE(SmallDatabase, "the snapshot a batch leaves answers as the directory opened again, over random batches "
                                  "each started from a copy of the one before, which its readers keep") {
  std::mt19937 random(11);
  auto pick = [&](uint32_t n) { return std::uniform_int_distribution<uint32_t>(0, n - 1)(random); };
  // Few terms, so that requests meet each other's triples; new predicates, literals and named graphs now and then.
  auto triple = [&] {
    const std::string t = "<http://e/s" + std::to_string(pick(8)) + "> <http://e/p" + std::to_string(pick(4)) + "> " +
                          (pick(2) ? "\"" + std::to_string(pick(9)) + "\"^^<http://www.w3.org/2001/XMLSchema#integer>"
                                   : "<http://e/s" + std::to_string(pick(10)) + ">");
    return pick(4) == 0 ? "GRAPH <http://g/" + std::to_string(pick(2)) + "> { " + t + " }" : t;
  };
  const char* ask = "SELECT ?s ?p ?o ?g { { ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o } } }";
  std::optional<Database> previous;  // what the batch before left
  for (int round = 0; round < scaledCases(12); ++round) {
    CAPTURE(round);
    const std::vector<std::string> before = previous ? sortedDumpOf(*previous) : std::vector<std::string>{};
    UpdateBatch batch(db, std::chrono::seconds(60), previous ? &*previous : nullptr);
    for (int i = 0, n = 1 + static_cast<int>(pick(6)); i < n; ++i) {
      const std::string form = pick(3) == 0 ? "DELETE DATA" : "INSERT DATA";
      UpdateOptions options;
      options.mergeWhenDue = false;
      batch.apply(form + " { " + triple() + " . " + triple() + " }", options);
    }
    batch.commit();
    if (previous) CHECK(sortedDumpOf(*previous) == before);
    previous = batch.snapshot();
    const Database& snapshot = *previous;
    const Database opened(db);
    CHECK(snapshot.isLatest());
    CHECK(sortedLines(snapshot.query(ask)) == sortedLines(opened.query(ask)));
    CHECK(sortedDumpOf(snapshot) == sortedDumpOf(opened));
    const DatabaseStatistics a = snapshot.statistics(), b = opened.statistics();
    CHECK(a.triples == b.triples);
    CHECK(a.terms == b.terms);
    CHECK(a.namedGraphs == b.namedGraphs);
    CHECK(a.deltaFiles == b.deltaFiles);
    CHECK(predicateStatistics(a) == predicateStatistics(b));
  }
}

namespace {

// 300 triples of <p> from subjects to 30 objects, each object with one <q>:
// the join below, whose estimates tell which snapshot planned it.
void loadJoinData(const TempDir& work) {
  std::string nt;
  for (int i = 0; i < 300; ++i) {
    nt += "<http://e/s" + std::to_string(i) + "> <http://e/p> <http://e/o" + std::to_string(i % 30) + "> .\n";
  }
  for (int i = 0; i < 30; ++i) nt += "<http://e/o" + std::to_string(i) + "> <http://e/q> \"" + std::to_string(i) + "\" .\n";
  writeFile(work / "data.nt", nt);
  Database::load(work / "db", {(work / "data.nt").string()});
}
const std::string kJoin = "SELECT * { ?s <http://e/p> ?o . ?o <http://e/q> ?v }";

// 300 more triples of <p>, spread over the objects as the first: the walks see them.
std::string moreJoinTriples() {
  std::string more;
  for (int i = 0; i < 300; ++i) more += "<http://e/t" + std::to_string(i) + "> <http://e/p> <http://e/o" + std::to_string(i % 30) + "> . ";
  return more;
}

// The row estimates of a query's EXPLAIN, in its order: which plan it ran.
std::vector<std::string> estimatesOf(const QueryResult& result) {
  static const std::regex estimate("estimated [0-9]+");
  const std::string explain = result.explain();
  std::vector<std::string> found;
  for (auto it = std::sregex_iterator(explain.begin(), explain.end(), estimate); it != std::sregex_iterator(); ++it) {
    found.push_back(it->str());
  }
  return found;
}

}  // namespace

TEST_CASE("the snapshot a batch leaves keeps the plans of the one it started from, until a new generation") {
  // engine/optimizer/plan_cache.h: a server's first queries after an update are not planned again.
  TempDir work;
  loadJoinData(work);
  const std::string more = moreJoinTriples();
  auto batchOn = [&](const Database& latest, const std::string& update) {
    UpdateBatch batch(work / "db", std::chrono::seconds(60), &latest);
    batch.apply(update);
    batch.commit();
    return batch.snapshot();
  };
  // The statistics' plans, and the walks' (whose refiner is each database's own).
  QueryOptions statistics, walks;
  statistics.optimizer = Optimizer::Statistics;
  walks.optimizer = Optimizer::Walks;
  const Database first(work / "db");
  const std::vector<std::string> planned[] = {estimatesOf(first.query(kJoin, statistics)),
                                              estimatesOf(first.query(kJoin, walks))};
  const Database second = batchOn(first, "INSERT DATA { " + more + "}");
  const Database opened(work / "db");  // the same snapshot from the folder: planned on its own data
  for (int o = 0; o < 2; ++o) {
    const QueryOptions& options = o == 0 ? statistics : walks;
    CAPTURE(o);
    REQUIRE_FALSE(planned[o].empty());
    const QueryResult kept = second.query(kJoin, options);
    const QueryResult replanned = opened.query(kJoin, options);
    CHECK(sortedLines(kept) == sortedLines(replanned));
    CHECK(kept.rowCount() == 600);
    CHECK(estimatesOf(kept) == planned[o]);
    CHECK(estimatesOf(replanned) != planned[o]);
  }

  // A CLEAR writes a new generation: its ids are new, its plans too.
  const Database third = batchOn(second, "CLEAR DEFAULT ; INSERT DATA { " + more + "}");
  CHECK(third.query(kJoin, statistics).rowCount() == 0);
  CHECK(estimatesOf(third.query(kJoin, statistics)) != planned[0]);
}

TEST_CASE("newest() extends a snapshot by the updates committed since, keeping its plans, and after a load opens the folder") {
  TempDir work;
  loadJoinData(work);
  QueryOptions walks;
  walks.optimizer = Optimizer::Walks;
  const Database first(work / "db");
  const std::vector<std::string> planned = estimatesOf(first.query(kJoin, walks));
  CHECK(estimatesOf(first.newest().query(kJoin, walks)) == planned);  // nothing new: the same content

  Database::update(work / "db", "INSERT DATA { " + moreJoinTriples() + "}");  // as another process would
  const Database second = first.newest();
  CHECK(second.isLatest());
  const QueryResult kept = second.query(kJoin, walks);
  CHECK(kept.rowCount() == 600);
  CHECK(estimatesOf(kept) == planned);
  const Database opened(work / "db");
  CHECK(sortedLines(opened.query(kJoin, walks)) == sortedLines(kept));
  CHECK(estimatesOf(opened.query(kJoin, walks)) != planned);

  Database::load(work / "db", {(work / "data.nt").string()});  // a new generation
  CHECK_FALSE(second.isLatest());
  const Database third = second.newest();
  CHECK(third.isLatest());
  CHECK(third.query(kJoin, walks).rowCount() == 600);  // the load added nothing new
}
