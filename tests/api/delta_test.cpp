// Small updates go to a delta beside the generation (storage/delta_file.h):
// a database read with its delta answers as one loaded with the same
// triples, on every part a query reads (terms, values, adjacency, counts),
// before and after the delta is merged into a generation of its own; the
// delta is durable, atomic and checked.
#include <doctest/doctest.h>

#include <map>
#include <random>
#include <set>

#include "gsparql/database.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

// Random triples over few terms, so that updates hit stored ones, with new
// subjects, predicates and typed literals now and then.
class TripleSource {
 public:
  explicit TripleSource(uint32_t seed) : rng_(seed) {}
  // A quad as N-Quads writes it: in the default graph, or in <http://g/1> or <http://g/2>.
  std::string quad() {
    const std::string s = "<http://e/s" + std::to_string(pick(12)) + ">";
    const std::string p = "<http://e/p" + std::to_string(pick(5)) + ">";
    const uint32_t graph = pick(4);
    return s + " " + p + " " + object() + (graph < 2 ? "" : " <http://g/" + std::to_string(graph - 1) + ">") + " .";
  }

 private:
  std::string object() {
    switch (pick(4)) {
      case 0: return "\"" + std::to_string(pick(20)) + "\"^^<http://www.w3.org/2001/XMLSchema#integer>";
      case 1: return "\"w" + std::to_string(pick(6)) + "\"@en";
      default: return "<http://e/s" + std::to_string(pick(14)) + ">";
    }
  }
  uint32_t pick(uint32_t n) { return std::uniform_int_distribution<uint32_t>(0, n - 1)(rng_); }
  std::mt19937 rng_;
};

std::string joined(const std::set<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

// The quad of an N-Quads line as INSERT DATA and DELETE DATA take it.
std::string asData(const std::string& quad) {
  const std::string statement = quad.substr(0, quad.size() - 2);
  const size_t graph = statement.rfind(" <http://g/");
  if (graph == std::string::npos || statement.back() != '>') return statement + " . ";
  return "GRAPH " + statement.substr(graph + 1) + " { " + statement.substr(0, graph) + " } ";
}

// Per predicate and graph: triples, subjects, objects and largest degrees.
std::map<std::string, std::vector<uint64_t>> predicateStatistics(const Database& db) {
  std::map<std::string, std::vector<uint64_t>> out;
  for (const auto& [name, p, graph] : db.statistics().predicates) {
    if (p.triples > 0) {
      out[name + " " + graph] = {p.triples, p.distinctSubjects, p.distinctObjects, p.maxOutDegree, p.maxInDegree};
    }
  }
  return out;
}

// Queries that read the adjacency both ways, the dictionary, the value
// column (numeric filters and order) and the term column.
const std::vector<std::string> kQueries{
    "SELECT ?s ?p ?o { ?s ?p ?o }",
    "SELECT ?a ?c { ?a <http://e/p1> ?b . ?b <http://e/p2> ?c }",
    "SELECT ?s ?v { ?s <http://e/p0> ?v FILTER(?v > 7) } ORDER BY ?v ?s",
    "SELECT ?o (COUNT(*) AS ?n) { <http://e/s3> ?p ?o } GROUP BY ?o",
    "SELECT ?s { ?s ?p \"w2\"@EN }",
    "SELECT ?x { ?x <http://e/p4> ?y . ?y <http://e/p4> ?x }",
    "SELECT ?g ?s ?o { GRAPH ?g { ?s <http://e/p1> ?o } }",
    "SELECT ?s ?o { GRAPH <http://g/2> { ?s ?p ?o . ?o ?q ?r } }",
};

void checkSameAnswers(const std::filesystem::path& db, const std::set<std::string>& model, const TempDir& work) {
  std::filesystem::remove_all(work / "fresh");
  writeFile(work / "model.nq", joined(model));
  Database::load(work / "fresh", {(work / "model.nq").string()});
  Database updated(db), fresh(work / "fresh");
  CHECK(updated.statistics().triples == model.size());
  CHECK(updated.statistics().namedGraphs == fresh.statistics().namedGraphs);
  CHECK(sortedDump(db) == sortedDump(work / "fresh"));
  CHECK(predicateStatistics(updated) == predicateStatistics(fresh));
  for (const std::string& query : kQueries) {
    CAPTURE(query);
    for (const bool unionDefaultGraph : {false, true}) {
      QueryOptions cpu;
      cpu.backend = Backend::Cpu;
      cpu.unionDefaultGraph = unionDefaultGraph;
      CHECK(sortedLines(updated.query(query, cpu)) == sortedLines(fresh.query(query, cpu)));
    }
  }
}

}  // namespace

TEST_CASE("a database read with its delta answers as one loaded with the same quads, before and after the merge") {
  for (uint32_t seed = 1; seed <= static_cast<uint32_t>(scaledCases(10)); ++seed) {
    CAPTURE(seed);
    TripleSource source(seed);
    std::set<std::string> model;
    for (int i = 0; i < 40; ++i) model.insert(source.quad());
    TempDir work;
    const auto db = work / "db";
    writeFile(work / "base.nq", joined(model));
    Database::load(db, {(work / "base.nq").string()});
    std::mt19937 rng(seed);
    for (uint32_t update = 1; update <= 12; ++update) {
      const bool insert = rng() % 3 != 0;
      std::set<std::string> quads;
      for (uint32_t i = 0; i < 1 + rng() % 4; ++i) quads.insert(source.quad());
      std::string body;
      for (const std::string& t : quads) {
        body += asData(t);
        if (insert) {
          model.insert(t);
        } else {
          model.erase(t);
        }
      }
      const UpdateSummary summary = Database::update(db, std::string(insert ? "INSERT" : "DELETE") + " DATA { " + body + "}");
      if (summary.changed) CHECK(summary.deltaFile > 0);
      CHECK(summary.triplesAfter == model.size());
    }
    CHECK(Database(db).statistics().deltaFiles > 0);
    checkSameAnswers(db, model, work);
    Database(db).verify();

    CHECK(Database::mergeDelta(db));
    CHECK_FALSE(Database::mergeDelta(db));
    CHECK(Database(db).statistics().deltaFiles == 0);
    checkSameAnswers(db, model, work);
    Database(db).verify();
  }
}

TEST_CASE("a reader keeps its snapshot while delta files come, and a new reader sees them") {
  TempDir work;
  const auto db = work / "db";
  writeFile(work / "base.nt", "<http://e/a> <http://e/p> <http://e/b> .\n");
  Database::load(db, {(work / "base.nt").string()});
  Database before(db);
  const UpdateSummary summary = Database::update(db, "INSERT DATA { <http://e/b> <http://e/new> \"5\"^^<http://www.w3.org/2001/XMLSchema#integer> }");
  CHECK(summary.deltaFile == 1);
  CHECK(summary.snapshot() == "generation 1 + delta file 1");
  CHECK_FALSE(before.isLatest());
  const char* ask = "ASK { <http://e/a> <http://e/p> ?x . ?x <http://e/new> ?v FILTER(?v = 5) }";
  CHECK_FALSE(before.query(ask).booleanValue());
  Database after(db);
  CHECK(after.isLatest());
  CHECK(after.query(ask).booleanValue());
  Database::update(db, "DELETE DATA { <http://e/a> <http://e/p> <http://e/b> }");
  CHECK_FALSE(after.isLatest());
  CHECK(after.query(ask).booleanValue());
  CHECK_FALSE(Database(db).query(ask).booleanValue());
}

TEST_CASE("a delta file is written whole or not at all, and a damaged one is a clear error") {
  TempDir work;
  const auto db = work / "db";
  writeFile(work / "base.nt", "<http://e/a> <http://e/p> <http://e/b> .\n");
  Database::load(db, {(work / "base.nt").string()});
  const auto dump = sortedDump(db);
  const std::vector<std::string> insert{"update", "--db", db.string(), "INSERT DATA { <http://e/c> <http://e/p> <http://e/d> }"};
  CHECK(runCli(insert, {"GSPARQL_CRASH_AT=delta-before-rename"}).signal != 0);
  CHECK(sortedDump(db) == dump);
  CHECK(runCli(insert, {"GSPARQL_CRASH_AT=delta-after-rename"}).signal != 0);
  CHECK(sortedDump(db).size() == dump.size() + 1);
  CHECK(Database(db).statistics().deltaFiles == 1);  // the stale .tmp file of the first crash is gone

  const auto delta = db / "gen-000001" / "delta-000001";
  std::filesystem::permissions(delta, std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
  std::filesystem::resize_file(delta, std::filesystem::file_size(delta) - 3);
  const std::string error = "database corrupted: " + delta.string();
  CHECK_THROWS_WITH_AS(Database{db}, doctest::Contains(error.c_str()), StorageError);
}

TEST_CASE("large changes write a generation, and a delta grown large is merged by the update that grows it") {
  TempDir work;
  const auto db = work / "db";
  std::string base;
  for (int i = 0; i < 25'000; ++i) base += "<http://e/s" + std::to_string(i) + "> <http://e/p> <http://e/o" + std::to_string(i % 97) + "> .\n";
  writeFile(work / "base.nt", base);
  Database::load(db, {(work / "base.nt").string()});
  CHECK(Database::update(db, "INSERT DATA { <http://e/x> <http://e/q> 1 }").deltaFile == 1);
  // Named graphs' triples go to the delta too, and the union of the named graphs follows them.
  CHECK(Database::update(db, "INSERT DATA { GRAPH <http://e/g> { <http://e/x> <http://e/q> 2 } }").deltaFile == 2);
  const char* inGraphs = "SELECT ?g ?o { GRAPH ?g { <http://e/x> <http://e/q> ?o } }";
  CHECK(sortedLines(Database(db).query(inGraphs)) == std::vector<std::string>{"<http://e/g>\t\"2\"^^<http://www.w3.org/2001/XMLSchema#integer>"});
  QueryOptions unionGraph;
  unionGraph.unionDefaultGraph = true;
  CHECK(sortedLines(Database(db).query("SELECT ?o { <http://e/x> <http://e/q> ?o }", unionGraph)) ==
        std::vector<std::string>{"\"2\"^^<http://www.w3.org/2001/XMLSchema#integer>"});
  // CLEAR writes a generation, with the delta folded in.
  const UpdateSummary cleared = Database::update(db, "CLEAR GRAPH <http://e/g>");
  CHECK(cleared.deltaFile == 0);
  CHECK(cleared.generation == 2);
  CHECK(Database(db).statistics().deltaFiles == 0);
  CHECK(Database(db).query(inGraphs).rows().empty());
  CHECK(countOf(Database(db).query("SELECT (COUNT(*) AS ?n) { <http://e/x> <http://e/q> ?o }")) == 1);
  // 25,000 insertions fit the delta and make it due a merge: merged at once.
  const UpdateSummary copied = Database::update(db, "INSERT { ?s <http://e/copy> ?o } WHERE { ?s <http://e/p> ?o }");
  CHECK(copied.merged);
  CHECK(copied.generation == 3);
  CHECK(Database(db).statistics().deltaFiles == 0);
  CHECK(countOf(Database(db).query("SELECT (COUNT(*) AS ?n) { ?s <http://e/copy> ?o }")) == 25'000);
  // Left to the caller, it is due.
  CHECK(Database::update(db, "INSERT { ?s <http://e/copy2> ?o } WHERE { ?s <http://e/p> ?o }", {{}, true, false}).mergeDue);
  CHECK(Database::mergeDelta(db));
}
