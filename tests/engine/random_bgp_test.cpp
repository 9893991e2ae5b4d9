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
