#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "gsparql/database.h"
#include "support/random_bgp.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

// The `index`-th tab-separated field of a row.
std::string field(const std::string& row, size_t index) {
  size_t start = 0;
  for (size_t i = 0; i < index; ++i) start = row.find('\t', start) + 1;
  return row.substr(start, row.find('\t', start) - start);
}

}  // namespace

TEST_CASE("random BGPs match a brute-force enumeration, under both semantics and both optimizers, and are counted alike") {
  // Covers variable predicates (also shared with vertices), self-loops,
  // parallel edges, blank nodes, constant-only patterns, absent constants
  // and disconnected patterns, on small random graphs.
  std::mt19937 random(20261122);
  int nonEmpty = 0, distinctCounts = 0;
  for (int i = 0; i < scaledCases(300); ++i) {
    RandomCase c = randomCase(random);
    TempDir dir;
    Database db(loadGraph(dir.path(), c.graph));
    CAPTURE(c.query);
    for (Semantics semantics : {Semantics::Homomorphism, Semantics::Isomorphism}) {
      auto expected = bruteForce(c, c.variables, semantics == Semantics::Isomorphism);
      for (Optimizer optimizer : {Optimizer::Sampling, Optimizer::Statistics}) {
        QueryOptions options{Backend::Cpu, semantics};
        options.optimizer = optimizer;
        QueryResult result = db.query(c.query, options);
        REQUIRE(result.variables() == c.variables);
        CHECK(sortedLines(result) == expected);
      }
      // BgpCount: the CPU executor multiplies the candidate counts of
      // independent last steps instead of making their rows.
      const QueryResult counted = db.query(countingQuery(c.query), {Backend::Cpu, semantics});
      CHECK(countOf(counted) == expected.size());
      CHECK(counted.explain().find("BgpCount") != std::string::npos);
      nonEmpty += !expected.empty();
      // COUNT(DISTINCT ?v) of one variable a case: vertex variables are
      // counted by the executor (BgpCount of distinct), predicate variables by GROUP BY.
      for (size_t v = static_cast<size_t>(i) % 3; v < c.variables.size(); v += 3) {
        std::set<std::string> values;
        for (const std::string& row : expected) values.insert(field(row, v));
        const QueryResult distinct = db.query(countingQuery(c.query, c.variables[v]), {Backend::Cpu, semantics});
        CAPTURE(c.variables[v]);
        CHECK(countOf(distinct) == values.size());
        distinctCounts += distinct.explain().find("BgpCount of distinct") != std::string::npos;
      }
    }
  }
  CHECK(nonEmpty > scaledCases(100));
  CHECK(distinctCounts > scaledCases(50));
}

TEST_CASE("random BGPs with VALUES limiting a variable to a set of constants match the brute-force rows with those values") {
  // Distinct values go into the BGP as a set its plan starts from or checks
  // (engine/bgp/bound_bgp.h); a value absent from the data matches nothing.
  std::mt19937 random(20261125);
  int limited = 0;
  for (int i = 0; i < scaledCases(100); ++i) {
    RandomCase c = randomCase(random);
    const std::string variable = randomVertexVariable(c, random);
    if (variable.empty()) continue;
    const std::vector<std::string> values = randomVertexTerms(random);
    const std::string query = withValues(c, variable, values);
    TempDir dir;
    Database db(loadGraph(dir.path(), c.graph));
    CAPTURE(query);
    const size_t column = std::find(c.variables.begin(), c.variables.end(), variable) - c.variables.begin();
    for (Semantics semantics : {Semantics::Homomorphism, Semantics::Isomorphism}) {
      std::vector<std::string> expected;
      for (const std::string& row : bruteForce(c, c.variables, semantics == Semantics::Isomorphism)) {
        if (std::find(values.begin(), values.end(), field(row, column)) != values.end()) expected.push_back(row);
      }
      for (Optimizer optimizer : {Optimizer::Sampling, Optimizer::Statistics}) {
        QueryOptions options{Backend::Cpu, semantics};
        options.optimizer = optimizer;
        const QueryResult result = db.query(query, options);
        CHECK(sortedLines(result) == expected);
        limited += result.explain().find(" constants") != std::string::npos;
      }
    }
  }
  CHECK(limited > scaledCases(25));
}

TEST_CASE("a count beyond the largest integer is an error, not a wrapped number") {
  // Five components of 10,000 solutions each: 10^20 solutions, counted
  // component by component without making the product.
  TempDir dir;
  std::string nt;
  for (int i = 0; i < 10000; ++i) nt += "<http://e/s" + std::to_string(i) + "> <http://e/p> <http://e/o> .\n";
  writeFile(dir / "data.nt", nt);
  Database::load(dir / "db", {(dir / "data.nt").string()});
  Database db(dir / "db");
  std::string patterns;
  for (int k = 0; k < 4; ++k) patterns += "?s" + std::to_string(k) + " <http://e/p> ?o" + std::to_string(k) + " . ";
  CHECK(countOf(db.query("SELECT (COUNT(*) AS ?n) WHERE { " + patterns + " }", {Backend::Cpu})) ==
        10000000000000000ull);  // 10^16
  CHECK_THROWS_WITH_AS(db.query("SELECT (COUNT(*) AS ?n) WHERE { " + patterns + "?s9 <http://e/p> ?o9 }", {Backend::Cpu}),
                       doctest::Contains("exceeds 9223372036854775807"), QueryError);
}

TEST_CASE("neighbours read in the order of the adjacency's keys give the hashed lookups' rows, over many tasks") {
  // 3,000 subjects, most with <p> edges (some with none), a third with a <q> edge: a step's rows come in
  // the keys' order (one pattern), in another order (after a join), and with keys skipped (a filter).
  std::mt19937 random(7);
  const auto iri = [](size_t n) { return "<http://e/v" + std::to_string(n) + ">"; };
  std::set<std::pair<std::string, std::string>> p, q;
  std::vector<StringTriple> graph;
  for (size_t s = 0; s < 3000; ++s) {
    for (size_t j = random() % 5 == 0 ? 0 : 1 + random() % 3; j > 0; --j) p.emplace(iri(s), iri(3000 + random() % 2000));
    if (random() % 3 == 0) q.emplace(iri(s), iri(random() % 3000));
  }
  for (const auto& [s, o] : p) graph.push_back({s, "<http://e/p>", o});
  for (const auto& [s, o] : q) graph.push_back({s, "<http://e/q>", o});
  TempDir dir;
  Database db(loadGraph(dir.path(), graph));
  std::vector<std::string> scan, joined, skipped;
  for (const auto& [s, o] : p) {
    scan.push_back(s + "\t" + o);
    if (s[s.size() - 2] % 2 == 0) skipped.push_back(s + "\t" + o);  // the last digit even
  }
  for (const auto& [t, s] : q) {
    for (auto it = p.lower_bound({s, ""}); it != p.end() && it->first == s; ++it) joined.push_back(t + "\t" + s + "\t" + it->second);
  }
  for (auto* rows : {&scan, &joined, &skipped}) std::sort(rows->begin(), rows->end());
  const QueryOptions cpu{Backend::Cpu};
  CHECK(sortedLines(db.query("SELECT ?s ?o { ?s <http://e/p> ?o }", cpu)) == scan);
  CHECK(sortedLines(db.query("SELECT ?t ?s ?o { ?t <http://e/q> ?s . ?s <http://e/p> ?o }", cpu)) == joined);
  CHECK(sortedLines(db.query("SELECT ?s ?o { ?s <http://e/p> ?o FILTER(REGEX(STR(?s), \"[02468]$\")) }", cpu)) ==
        skipped);
  CHECK(scan.size() > 4000);
  CHECK(joined.size() > 1000);
}
