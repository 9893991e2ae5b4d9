// SPARQL 1.1 Update through the API: what each operation does (checked
// against Apache Jena's arq.update on the same data), durability and
// atomicity, and the errors of what the store cannot do.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <regex>

#include "gsparql/database.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

const char* kPeople =
    "<http://e/alice> <http://e/knows> <http://e/bob> .\n"
    "<http://e/alice> <http://e/knows> <http://e/carol> .\n"
    "<http://e/bob> <http://e/knows> <http://e/carol> .\n"
    "<http://e/alice> <http://e/age> \"30\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n"
    "<http://e/bob> <http://e/age> \"25\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n"
    "<http://e/bob> <http://e/name> \"Bob\"@en .\n"
    "_:x <http://e/knows> <http://e/alice> .\n";

struct Store {
  TempDir dir;
  std::filesystem::path db = dir / "db";
  explicit Store(const std::string& ntriples = kPeople) {
    writeFile(dir / "data.nt", ntriples);
    Database::load(db, {(dir / "data.nt").string()});
  }
  UpdateSummary update(const std::string& request) const { return Database::update(db, request); }
  uint64_t generation() const { return Database(db).statistics().generation; }
};

// Dump lines with every blank node label replaced by _:b, sorted: two
// stores that differ only in their labels give the same lines.
std::vector<std::string> withoutLabels(std::vector<std::string> lines) {
  static const std::regex blank("_:[A-Za-z0-9_]+");
  for (auto& line : lines) line = std::regex_replace(line, blank, "_:b");
  std::sort(lines.begin(), lines.end());
  return lines;
}

// The default graph after Jena applied `request` to `data`, as a dump of ours.
std::vector<std::string> jenaResult(const std::filesystem::path& data, const std::string& request, const TempDir& work) {
  writeFile(work / "request.ru", request);
  const std::string command = std::string(GSPARQL_JENA_UPDATE) + " " + data.string() + " " +
                              (work / "request.ru").string() + " " + (work / "jena.ttl").string();
  const int status = std::system(command.c_str());
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  std::filesystem::remove_all(work / "jena-db");
  Database::load(work / "jena-db", {(work / "jena.ttl").string()});
  return withoutLabels(sortedDump(work / "jena-db"));
}

}  // namespace

TEST_CASE("each kind of update leaves the graph that Jena's arq.update leaves") {
  const std::vector<std::string> requests{
      "INSERT DATA { <http://e/dave> <http://e/knows> <http://e/alice> . <http://e/dave> <http://e/name> \"Dave\" }",
      "DELETE DATA { <http://e/alice> <http://e/knows> <http://e/bob> . <http://e/nobody> <http://e/knows> <http://e/bob> }",
      "PREFIX e: <http://e/> DELETE { ?a e:knows ?b } INSERT { ?b e:knownBy ?a } WHERE { ?a e:knows ?b }",
      "PREFIX e: <http://e/> DELETE WHERE { ?p e:age ?age . ?p e:knows e:carol }",
      "PREFIX e: <http://e/> INSERT { ?p e:older [ e:than ?q ] } WHERE { ?p e:age ?x . ?q e:age ?y FILTER(?x > ?y) }",
      "PREFIX e: <http://e/> INSERT { ?p e:label ?l } WHERE { ?p e:knows ?q BIND(CONCAT(\"k-\", STR(?q)) AS ?l) }",
      "PREFIX e: <http://e/> INSERT DATA { e:z e:p 1 } ; DELETE DATA { e:alice e:age 30 } ; INSERT DATA { e:z e:p 2 }",
      "CLEAR DEFAULT ; INSERT DATA { <http://e/only> <http://e/p> <http://e/this> }",
      // Later operations read what earlier ones changed.
      "PREFIX e: <http://e/> INSERT DATA { e:dave e:knows e:alice } ; DELETE WHERE { ?x e:knows e:alice } ; "
      "INSERT { ?x e:was e:here } WHERE { ?x e:knows ?y }",
      "PREFIX e: <http://e/> DELETE { ?a e:knows ?b } INSERT { ?b e:knows ?a } WHERE { ?a e:knows ?b } ; "
      "INSERT { ?a e:friend [] } WHERE { ?a e:knows e:alice }",
      "PREFIX e: <http://e/> INSERT { ?s e:p 1 } WHERE { ?s e:nothing ?o }",
  };
  // Under ASan a few (Jena's start takes seconds whatever the build; the
  // update code they reach runs under ASan in the other tests too).
  const size_t cases = std::min(requests.size(), static_cast<size_t>(scaledCases(static_cast<int>(requests.size()))));
  for (size_t i = 0; i < cases; ++i) {
    const std::string& request = requests[i];
    CAPTURE(request);
    Store store;
    store.update(request);
    TempDir work;
    CHECK(withoutLabels(sortedDump(store.db)) == jenaResult(store.dir / "data.nt", request, work));
    Database(store.db).verify();
  }
}

TEST_CASE("an update is durable: a database opened later sees it, one opened before keeps its snapshot") {
  Store store;
  Database before(store.db);
  const UpdateSummary summary = store.update("INSERT DATA { <http://e/new> <http://e/p> <http://e/o> }");
  CHECK(summary.changed);
  CHECK(summary.operations == 1);
  CHECK(summary.triplesAfter == summary.triplesBefore + 1);
  CHECK_FALSE(before.isLatest());
  const char* ask = "ASK { <http://e/new> <http://e/p> <http://e/o> }";
  CHECK_FALSE(before.query(ask).booleanValue());
  Database after(store.db);
  CHECK(after.query(ask).booleanValue());
  CHECK(after.statistics().generation == summary.generation);
}

TEST_CASE("an update that changes nothing writes no generation") {
  Store store;
  const uint64_t generation = store.generation();
  CHECK_FALSE(store.update("DELETE DATA { <http://e/nobody> <http://e/knows> <http://e/bob> }").changed);
  CHECK_FALSE(store.update("DELETE WHERE { ?s <http://e/nothing> ?o }").changed);
  CHECK_FALSE(store.update("CLEAR NAMED ; CLEAR SILENT GRAPH <http://e/g> ; ADD DEFAULT TO DEFAULT").changed);
  CHECK_FALSE(store.update("INSERT DATA { <http://e/x> <http://e/p> 1 } ; DELETE DATA { <http://e/x> <http://e/p> 1 }")
                  .changed);
  CHECK_FALSE(store.update("INSERT DATA { <http://e/alice> <http://e/knows> <http://e/bob> }").changed);
  CHECK(store.generation() == generation);
}

TEST_CASE("blank nodes: fresh per request and per solution, existing ones kept") {
  Store store("");
  store.update("INSERT DATA { _:a <http://e/p> 1 . _:a <http://e/q> 2 . _:b <http://e/p> 3 }");
  store.update("INSERT DATA { _:a <http://e/p> 4 }");
  Database db(store.db);
  // _:a of the first request is one node with both properties; the second request's _:a is another.
  CHECK(countOf(db.query("SELECT (COUNT(*) AS ?n) { ?s <http://e/p> ?x . ?s <http://e/q> ?y }")) == 1);
  CHECK(countOf(db.query("SELECT (COUNT(DISTINCT ?s) AS ?n) { ?s <http://e/p> ?x }")) == 3);
  // A template's blank node is fresh per solution; a bound existing one stays itself.
  store.update("INSERT { ?s <http://e/copy> [ <http://e/of> ?x ] } WHERE { ?s <http://e/p> ?x }");
  Database later(store.db);
  CHECK(countOf(later.query("SELECT (COUNT(DISTINCT ?c) AS ?n) { ?s <http://e/copy> ?c }")) == 3);
  CHECK(countOf(later.query("SELECT (COUNT(*) AS ?n) { ?s <http://e/p> ?x ; <http://e/copy> [ <http://e/of> ?x ] }")) == 3);
}

TEST_CASE("a request is applied whole or not at all") {
  Store store;
  const auto dump = sortedDump(store.db);
  const uint64_t generation = store.generation();
  auto unchanged = [&] {
    CHECK(sortedDump(store.db) == dump);
    CHECK(store.generation() == generation);
  };
  // The second operation fails: the first is not applied either.
  CHECK_THROWS_WITH_AS(store.update("INSERT DATA { <http://e/x> <http://e/p> 1 } ; CLEAR GRAPH <http://e/g>"),
                       doctest::Contains("1:47: graph <http://e/g> does not exist"), QueryError);
  unchanged();
  // A syntax error anywhere: nothing runs.
  CHECK_THROWS_WITH_AS(store.update("INSERT DATA { <http://e/x> <http://e/p> 1 } ; DELETE DATA { ?x ?y ?z }"),
                       doctest::Contains("variables are not allowed in DELETE DATA"), QueryError);
  unchanged();
  // A LOAD of a file with an error: its position, and nothing of the request.
  writeFile(store.dir / "bad.nt", "<http://e/a> <http://e/b> <http://e/c> .\n<http://e/a> <http://e/b> .\n");
  CHECK_THROWS_WITH_AS(store.update("INSERT DATA { <http://e/x> <http://e/p> 1 } ; LOAD <file://" +
                                    (store.dir / "bad.nt").string() + ">"),
                       doctest::Contains("bad.nt:2:"), LoadError);
  unchanged();
  // Changes that outgrow the memory budget.
  UpdateOptions small;
  small.query.memoryBudgetBytes = 1000;
  CHECK_THROWS_WITH_AS(Database::update(store.db, "DELETE WHERE { ?s ?p ?o }", small),
                       doctest::Contains("the update's changes would exceed"), QueryOutOfMemory);
  unchanged();
  // A pattern that runs out of time.
  UpdateOptions slow;
  slow.query.timeout = std::chrono::milliseconds(0);
  CHECK_THROWS_AS(Database::update(store.db, "INSERT { ?a <http://e/p> ?b } WHERE { ?a ?p ?b . ?c ?q ?d . ?e ?r ?f }", slow),
                  QueryTimedOut);
  unchanged();
  Database(store.db).verify();
}

TEST_CASE("LOAD adds a local file, SILENT skips one that is missing, unreadable or bad") {
  Store store;
  writeFile(store.dir / "more.nt", "<http://e/m> <http://e/p> <http://e/n> .\n");
  store.update("LOAD <file://" + (store.dir / "more.nt").string() + ">");
  CHECK(Database(store.db).query("ASK { <http://e/m> <http://e/p> <http://e/n> }").booleanValue());
  CHECK_FALSE(store.update("LOAD SILENT <file:///no/such/file.nt>").changed);
  // A syntax error, or a format the name does not tell: the rest of the request still applies.
  writeFile(store.dir / "bad.nt", "<http://e/a> <http://e/b> <http://e/c> .\n<http://e/a> <http://e/b> .\n");
  writeFile(store.dir / "data.txt", "<http://e/a> <http://e/b> <http://e/c> .\n");
  for (const char* file : {"bad.nt", "data.txt"}) {
    CAPTURE(file);
    const std::string path = (store.dir / file).string();
    CHECK_THROWS_AS(store.update("LOAD <file://" + path + ">"), LoadError);
    CHECK(store.update("LOAD SILENT <file://" + path + "> ; INSERT DATA { <http://e/s> <http://e/p> \"" +
                       std::string(file) + "\" }")
              .changed);
    CHECK(Database(store.db).query("ASK { <http://e/s> <http://e/p> \"" + std::string(file) + "\" }").booleanValue());
    CHECK_FALSE(Database(store.db).query("ASK { <http://e/a> <http://e/b> <http://e/c> }").booleanValue());
  }
  CHECK_THROWS_WITH_AS(store.update("LOAD <file:///no/such/file.nt>"), doctest::Contains("not a readable file"),
                       QueryError);
  CHECK_THROWS_WITH_AS(store.update("LOAD <http://example.org/data.nt>"), doctest::Contains("local files only"),
                       QueryError);
  UpdateOptions served;
  served.allowLoad = false;
  CHECK_THROWS_WITH_AS(Database::update(store.db, "LOAD <file://" + (store.dir / "more.nt").string() + ">", served),
                       doctest::Contains("LOAD is not allowed here"), QueryError);
}

TEST_CASE("updates write named graphs: GRAPH in data and templates, WITH, USING, CLEAR, DROP, ADD, MOVE and COPY") {
  Store store("<http://e/a> <http://e/p> <http://e/b> .\n");
  auto dump = [&] { return sortedDump(store.db); };
  store.update("INSERT DATA { GRAPH <http://e/g> { <http://e/a> <http://e/p> <http://e/c> } }");
  CHECK(dump() == std::vector<std::string>{"<http://e/a> <http://e/p> <http://e/b> .",
                                           "<http://e/a> <http://e/p> <http://e/c> <http://e/g> ."});
  // WITH names the graph the templates and the pattern use; the default graph stays.
  store.update("WITH <http://e/g> DELETE { ?s ?p ?o } INSERT { ?o ?p ?s } WHERE { ?s ?p ?o }");
  CHECK(dump() == std::vector<std::string>{"<http://e/a> <http://e/p> <http://e/b> .",
                                           "<http://e/c> <http://e/p> <http://e/a> <http://e/g> ."});
  // USING makes a graph the pattern's default graph; the template writes the store's.
  store.update("INSERT { ?s <http://e/q> ?o } USING <http://e/g> WHERE { ?s ?p ?o }");
  CHECK(Database(store.db).query("ASK { <http://e/c> <http://e/q> <http://e/a> }").booleanValue());
  // A GRAPH variable in a template writes each solution's graph.
  store.update("INSERT { GRAPH ?g { ?s <http://e/r> ?o } } WHERE { GRAPH ?g { ?s <http://e/p> ?o } }");
  CHECK(Database(store.db).query("ASK { GRAPH <http://e/g> { <http://e/c> <http://e/r> <http://e/a> } }").booleanValue());
  store.update("COPY <http://e/g> TO <http://e/h> ; MOVE DEFAULT TO <http://e/k> ; ADD <http://e/h> TO DEFAULT");
  const Database db(store.db);
  CHECK(countOf(db.query("SELECT (COUNT(*) AS ?n) WHERE { GRAPH <http://e/h> { ?s ?p ?o } }")) == 2);
  CHECK(countOf(db.query("SELECT (COUNT(*) AS ?n) WHERE { GRAPH <http://e/k> { ?s ?p ?o } }")) == 2);
  CHECK(countOf(db.query("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")) == 2);
  // An absent graph: CLEAR, DROP and ADD from it fail with the position, or with SILENT do nothing.
  for (const char* request : {"CLEAR GRAPH <http://e/none>", "DROP GRAPH <http://e/none>", "ADD <http://e/none> TO DEFAULT"}) {
    CAPTURE(request);
    CHECK_THROWS_WITH_AS(store.update(request), doctest::Contains("1:1: graph <http://e/none> does not exist"), QueryError);
  }
  CHECK_FALSE(store.update("DROP SILENT GRAPH <http://e/none> ; CREATE GRAPH <http://e/new>").changed);
  CHECK_THROWS_WITH_AS(store.update("CREATE GRAPH <http://e/g>"), doctest::Contains("already exists"), QueryError);
  // The request's dataset (the Protocol's using-graph-uri) and an operation's own USING or WITH: an error, not a guess.
  UpdateOptions usingGraph;
  usingGraph.query.defaultGraphs = {"http://e/g"};
  CHECK_THROWS_WITH_AS(Database::update(store.db, "WITH <http://e/g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }", usingGraph),
                       doctest::Contains("cannot also take the dataset"), QueryError);
  usingGraph.query.defaultGraphs = {"not an iri"};
  CHECK_THROWS_WITH_AS(Database::update(store.db, "DELETE WHERE { ?s ?p ?o }", usingGraph),
                       doctest::Contains("must be an absolute IRI"), QueryError);
  // The union of the named graphs (--union-default-graph) follows every change.
  QueryOptions unionOfNamed;
  unionOfNamed.unionDefaultGraph = true;
  const std::string everything = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }";
  CHECK(countOf(Database(store.db).query(everything, unionOfNamed)) == 4);  // g and k; h copies g: each triple once
  store.update("DELETE DATA { GRAPH <http://e/h> { <http://e/c> <http://e/p> <http://e/a> } }");
  CHECK(countOf(Database(store.db).query(everything, unionOfNamed)) == 4);  // still in g
  store.update("DELETE DATA { GRAPH <http://e/k> { <http://e/a> <http://e/p> <http://e/b> } }");
  CHECK(countOf(Database(store.db).query(everything, unionOfNamed)) == 3);
  store.update("DROP NAMED");
  CHECK(countOf(Database(store.db).query(everything, unionOfNamed)) == 0);
  CHECK(dump().size() == 2);
  CHECK(Database(store.db).statistics().namedGraphs == 0);
}

TEST_CASE("a deletion after a LOAD of the same request sees the loaded triples, and nothing is left behind") {
  Store store;
  writeFile(store.dir / "more.nt", "<http://e/m> <http://e/p> <http://e/n> .\n<http://e/m> <http://e/p> <http://e/o> .\n");
  store.update("LOAD <file://" + (store.dir / "more.nt").string() + "> ; DELETE WHERE { <http://e/m> ?p <http://e/n> }");
  Database db(store.db);
  CHECK(countOf(db.query("SELECT (COUNT(*) AS ?n) { <http://e/m> ?p ?o }")) == 1);
  CHECK(db.query("ASK { <http://e/m> <http://e/p> <http://e/o> }").booleanValue());
  // The intermediate generation it read is gone, and so is the generation before the update.
  std::vector<std::string> generations;
  for (const auto& name : directoryEntries(store.db)) {
    if (name.starts_with("gen-")) generations.push_back(name);
  }
  CHECK(generations == std::vector<std::string>{"gen-000002"});
}

TEST_CASE("an update creates the database when there is none, and a query string is not an update") {
  TempDir dir;
  const UpdateSummary summary = Database::update(dir / "fresh", "INSERT DATA { <http://e/a> <http://e/p> \"v\" }");
  CHECK(summary.triplesAfter == 1);
  CHECK(Database(dir / "fresh").query("ASK { <http://e/a> <http://e/p> \"v\" }").booleanValue());
  CHECK(isUpdateRequest("PREFIX e: <http://e/> INSERT DATA { e:a e:p 1 }"));
  CHECK_FALSE(isUpdateRequest("SELECT * { ?s ?p ?o }"));
  CHECK_THROWS_WITH_AS(Database::update(dir / "fresh", "SELECT * { ?s ?p ?o }"), doctest::Contains("1:1"), QueryError);
  CHECK_THROWS_WITH_AS(Database(dir / "fresh").query("CLEAR ALL"), doctest::Contains("is a SPARQL Update request"),
                       QueryError);
}

TEST_CASE("an update killed before its commit leaves the database as it was") {
  Store store;
  const auto dump = sortedDump(store.db);
  for (const char* point : {"after-build", "before-switch", "before-current-rename"}) {
    CAPTURE(point);
    const ProcessResult result = runCli({"update", "--db", store.db.string(), "CLEAR ALL"},
                                        {std::string("GSPARQL_CRASH_AT=") + point});
    CHECK(result.signal != 0);
    CHECK(sortedDump(store.db) == dump);
    Database(store.db).verify();
  }
  CHECK(runCli({"update", "--db", store.db.string(), "CLEAR ALL"}).exitCode == 0);
  CHECK(sortedDump(store.db).empty());
}
