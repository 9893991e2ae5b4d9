#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "gsparql/database.h"
#include "support/random_bgp.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

const std::vector<std::string> kGraphs = {"<http://g/1>", "<http://g/2>"};

// The RDF merge of two graphs without blank nodes: each triple once.
std::vector<StringTriple> merged(const std::vector<StringTriple>& a, const std::vector<StringTriple>& b) {
  std::set<std::tuple<std::string, std::string, std::string>> seen;
  std::vector<StringTriple> out;
  for (const auto* graph : {&a, &b}) {
    for (const auto& t : *graph) {
      if (seen.emplace(t.s, t.p, t.o).second) out.push_back(t);
    }
  }
  return out;
}

std::string variableList(const std::vector<std::string>& variables) {
  std::string list;
  for (const auto& v : variables) list += " ?" + v;
  return list;
}

// `rows` with `prefix` before each, sorted.
std::vector<std::string> prefixed(const std::string& prefix, std::vector<std::string> rows) {
  for (auto& row : rows) row = prefix + (row.empty() ? "" : "\t" + row);
  return rows;
}

}  // namespace

TEST_CASE("a BGP in a graph matches that graph alone: the default graph, GRAPH <g>, GRAPH ?g, FROM, FROM NAMED and the union of the named graphs") {
  // The oracle is the brute-force matcher run on each graph by itself.
  std::mt19937 random(20261124);
  int nonEmpty = 0;
  for (int i = 0; i < scaledCases(150); ++i) {
    const RandomCase c = randomCase(random);
    const std::vector<std::vector<StringTriple>> graphs = {c.graph, randomCase(random).graph,
                                                          randomCase(random).graph};
    std::vector<std::vector<std::string>> expected;
    for (const auto& graph : graphs) expected.push_back(bruteForce({graph, c.patterns, c.query, c.variables}, c.variables, false));
    const auto unionOfNamed = bruteForce({merged(graphs[1], graphs[2]), c.patterns, c.query, c.variables}, c.variables, false);
    TempDir dir;
    writeFile(dir / "data.nq", toNQuads(graphs, kGraphs));
    Database::load(dir / "db", {(dir / "data.nq").string()});
    Database db(dir / "db");
    CAPTURE(c.query);
    const std::string where = c.query.substr(c.query.find('{'));
    const std::string select = "SELECT" + (c.variables.empty() ? std::string(" *") : variableList(c.variables));
    for (Optimizer optimizer : {Optimizer::Sampling, Optimizer::Cost}) {
      QueryOptions options{Backend::Cpu};
      options.optimizer = optimizer;
      CHECK(sortedLines(db.query(c.query, options)) == expected[0]);
      CHECK(sortedLines(db.query(select + " WHERE { GRAPH " + kGraphs[0] + " " + where + " }", options)) == expected[1]);
      CHECK(sortedLines(db.query(select + " FROM " + kGraphs[1] + " " + where, options)) == expected[2]);
      std::vector<std::string> all = prefixed(kGraphs[0], expected[1]);
      for (const auto& row : prefixed(kGraphs[1], expected[2])) all.push_back(row);
      std::sort(all.begin(), all.end());
      const std::string byGraph = "SELECT ?g" + variableList(c.variables);
      CHECK(sortedLines(db.query(byGraph + " WHERE { GRAPH ?g " + where + " }", options)) == all);
      CHECK(sortedLines(db.query(byGraph + " FROM NAMED " + kGraphs[1] + " WHERE { GRAPH ?g " + where + " }", options)) ==
            prefixed(kGraphs[1], expected[2]));
      CHECK(sortedLines(db.query(select + " FROM " + kGraphs[0] + " FROM " + kGraphs[1] + " " + where, options)) ==
            unionOfNamed);
      options.unionDefaultGraph = true;
      CHECK(sortedLines(db.query(c.query, options)) == unionOfNamed);
      CHECK(sortedLines(db.query(select + " FROM " + kGraphs[1] + " " + where, options)) == expected[2]);
    }
    nonEmpty += !expected[1].empty() && !expected[2].empty();
  }
  CHECK(nonEmpty > scaledCases(20));
}

TEST_CASE("graph names, paths, EXISTS and predicate variables stay inside their graph") {
  TempDir dir;
  writeFile(dir / "data.nq",
            "<http://e/a> <http://e/p> <http://e/b> .\n"
            "<http://e/b> <http://e/p> <http://e/c> <http://g/1> .\n"
            "<http://e/c> <http://e/p> <http://e/d> <http://g/1> .\n"
            "<http://e/a> <http://e/q> <http://e/b> <http://g/2> .\n"
            "<http://g/1> <http://e/about> \"one\" <http://g/2> .\n");
  Database::load(dir / "db", {(dir / "data.nq").string()});
  Database db(dir / "db");
  auto rows = [&](const std::string& query) { return sortedLines(db.query(query, {Backend::Cpu})); };
  // Graph names join with the data that mentions them.
  CHECK(rows("SELECT ?g ?label WHERE { GRAPH ?g { ?s <http://e/p> ?o } GRAPH ?h { ?g <http://e/about> ?label } }") ==
        std::vector<std::string>{"<http://g/1>\t\"one\"", "<http://g/1>\t\"one\""});
  // A path in graph 1 only: b -> c -> d, not the default graph's a -> b.
  CHECK(rows("SELECT ?x WHERE { GRAPH <http://g/1> { <http://e/b> <http://e/p>+ ?x } }") ==
            std::vector<std::string>{"<http://e/c>", "<http://e/d>"});
  // Zero-length paths reach the graph's own nodes, not graph names or other graphs' nodes.
  CHECK(rows("SELECT ?x WHERE { GRAPH <http://g/1> { ?x <http://e/p>* ?x } }") ==
        std::vector<std::string>{"<http://e/b>", "<http://e/c>", "<http://e/d>"});
  CHECK(rows("SELECT ?x WHERE { ?x <http://e/p>* ?x }") == std::vector<std::string>{"<http://e/a>", "<http://e/b>"});
  // EXISTS matches the active graph.
  CHECK(rows("SELECT ?s WHERE { GRAPH <http://g/1> { ?s <http://e/p> ?o FILTER EXISTS { ?o <http://e/p> ?x } } }") ==
        std::vector<std::string>{"<http://e/b>"});
  CHECK(rows("SELECT ?s WHERE { ?s <http://e/p> ?o FILTER EXISTS { ?o <http://e/p> ?x } }").empty());
  // A predicate variable ranges over the graph's predicates, and its values equal across graphs.
  CHECK(rows("SELECT DISTINCT ?p WHERE { GRAPH <http://g/2> { ?s ?p ?o } }") ==
        std::vector<std::string>{"<http://e/about>", "<http://e/q>"});
  CHECK(rows("SELECT ?g WHERE { ?s ?p ?o GRAPH ?g { ?x ?p ?y } }") == std::vector<std::string>{"<http://g/1>", "<http://g/1>"});
  // An absent graph has no solutions, even for an empty pattern; a present one has one.
  CHECK(rows("SELECT * WHERE { GRAPH <http://g/absent> { } }").empty());
  CHECK(rows("SELECT * WHERE { GRAPH <http://g/1> { } }").size() == 1);
  CHECK(rows("SELECT ?g WHERE { GRAPH ?g { } }") == std::vector<std::string>{"<http://g/1>", "<http://g/2>"});
  // FROM NAMED alone leaves the default graph empty.
  CHECK(rows("SELECT * FROM NAMED <http://g/1> WHERE { ?s ?p ?o }").empty());
}

TEST_CASE("a default graph merged from several FROM graphs holds each of their triples once, for BGPs, paths and counts") {
  TempDir dir;
  writeFile(dir / "data.nq",
            "<http://e/a> <http://e/p> <http://e/z> .\n"
            "<http://e/b> <http://e/p> <http://e/c> <http://g/1> .\n"
            "<http://e/c> <http://e/p> <http://e/d> <http://g/1> .\n"
            "<http://e/a> <http://e/q> <http://e/b> <http://g/2> .\n"
            "<http://e/b> <http://e/p> <http://e/c> <http://g/3> .\n"
            "<http://e/b> <http://e/r> <http://e/c> <http://g/3> .\n");
  Database::load(dir / "db", {(dir / "data.nq").string()});
  Database db(dir / "db");
  auto rows = [&](const std::string& from, const std::string& pattern, const std::string& select = "*") {
    return sortedLines(db.query("SELECT " + select + " " + from + " WHERE { " + pattern + " }", {Backend::Cpu}));
  };
  using Rows = std::vector<std::string>;
  const std::string g13 = "FROM <http://g/1> FROM <http://g/3>", g12 = "FROM <http://g/1> FROM <http://g/2>";
  // <b> <p> <c> is in graphs 1 and 3: one triple of their merge.
  CHECK(rows(g13, "?s <http://e/p> ?o") == Rows{"<http://e/b>\t<http://e/c>", "<http://e/c>\t<http://e/d>"});
  CHECK(rows(g13, "?s ?p ?o", "(COUNT(*) AS ?n)") == Rows{"\"3\"^^<http://www.w3.org/2001/XMLSchema#integer>"});
  CHECK(rows(g13, "?s ?p ?o FILTER(?s = <http://e/b>)", "?p") == Rows{"<http://e/p>", "<http://e/r>"});
  CHECK(rows(g13 + " FROM <http://g/1>", "<http://e/b> <http://e/p> ?o") == Rows{"<http://e/c>"});
  // Joins cross the graphs, through variables and through blank nodes.
  CHECK(rows(g12, "<http://e/a> <http://e/q> ?x . ?x <http://e/p> ?y", "?y") == Rows{"<http://e/c>"});
  CHECK(rows(g12, "<http://e/a> <http://e/q> _:b . _:b <http://e/p> ?y", "?y") == Rows{"<http://e/c>"});
  CHECK(rows(g12, "?x <http://e/p> ?y . ?y <http://e/p> ?z VALUES ?x { <http://e/b> }", "?z") == Rows{"<http://e/d>"});
  // Paths: links, alternatives and negated sets reach a node once; sequences and closures cross the graphs.
  CHECK(rows(g13, "<http://e/b> <http://e/p>|<http://e/q> ?o", "?o") == Rows{"<http://e/c>"});
  CHECK(rows(g13, "<http://e/b> !<http://e/q> ?o", "?o") == Rows{"<http://e/c>", "<http://e/c>"});
  CHECK(rows(g13, "<http://e/b> !(<http://e/q>|<http://e/r>) ?o", "?o") == Rows{"<http://e/c>"});
  CHECK(rows(g12, "<http://e/a> <http://e/q>/<http://e/p>+ ?o", "?o") == Rows{"<http://e/c>", "<http://e/d>"});
  CHECK(rows(g13, "?x <http://e/p>* ?x", "?x") == Rows{"<http://e/b>", "<http://e/c>", "<http://e/d>"});
  // The default graph of the store is not in the merge; an absent graph adds nothing.
  CHECK(rows(g12 + " FROM <http://g/absent>", "?s <http://e/p> <http://e/z>").empty());
  CHECK(rows("FROM <http://g/absent> FROM <http://g/other>", "?s ?p ?o").empty());
  // GRAPH inside still reads the named graphs of the dataset, not the merge.
  CHECK(rows(g13 + " FROM NAMED <http://g/2>", "GRAPH ?g { ?s ?p ?o }", "?g") == Rows{"<http://g/2>"});
  // Updates: USING several graphs matches their merge.
  Database::update(dir / "db",
      "INSERT { GRAPH <http://g/4> { ?s <http://e/two> ?y } } USING <http://g/1> USING <http://g/2> "
      "WHERE { ?s <http://e/q> ?x . ?x <http://e/p> ?y }");
  CHECK(sortedLines(Database(dir / "db").query("SELECT ?s ?y WHERE { GRAPH <http://g/4> { ?s ?p ?y } }", {Backend::Cpu})) ==
        Rows{"<http://e/a>\t<http://e/c>"});
}

TEST_CASE("load --graph puts triples into a named graph, and a bad graph name is a clear error") {
  TempDir dir;
  writeFile(dir / "data.nt", "<http://e/a> <http://e/p> <http://e/b> .\n");
  auto result = runCli({"load", "--db", (dir / "db").string(), "--graph", "http://g/x", (dir / "data.nt").string()});
  REQUIRE(result.exitCode == 0);
  CHECK(sortedDump(dir / "db") == std::vector<std::string>{"<http://e/a> <http://e/p> <http://e/b> <http://g/x> ."});
  result = runCli({"load", "--db", (dir / "db2").string(), "--graph", "not an iri", (dir / "data.nt").string()});
  CHECK(result.exitCode != 0);
  CHECK(result.output.find("absolute IRI") != std::string::npos);
  CHECK(!std::filesystem::exists(dir / "db2" / "CURRENT"));
  writeFile(dir / "bad.nq", "<http://e/a> <http://e/p> <http://e/b> .\n<http://e/a> <http://e/p> <http://e/c> \"g\" .\n");
  result = runCli({"load", "--db", (dir / "db3").string(), (dir / "bad.nq").string()});
  CHECK(result.exitCode != 0);
  CHECK(result.output.find("bad.nq:2:") != std::string::npos);
}
