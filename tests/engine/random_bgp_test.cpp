#include <doctest/doctest.h>

#include "gsparql/database.h"
#include "support/random_bgp.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

std::vector<std::string> sortedLines(const QueryResult& result) {
  std::vector<std::string> rows;
  result.forEachRow([&](std::span<const Term> row) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) line += (i ? "\t" : "") + std::string(row[i].value_or(""));
    rows.push_back(line);
  });
  std::sort(rows.begin(), rows.end());
  return rows;
}

}  // namespace

TEST_CASE("random BGPs match a brute-force enumeration, under both semantics") {
  // Covers variable predicates (also shared with vertices), self-loops,
  // parallel edges, blank nodes, constant-only patterns, absent constants
  // and disconnected patterns, on small random graphs.
  std::mt19937 random(20261122);
  int nonEmpty = 0;
  for (int i = 0; i < 300; ++i) {
    RandomCase c = randomCase(random);
    TempDir dir;
    Database db(loadGraph(dir.path(), c.graph));
    CAPTURE(c.query);
    for (Semantics semantics : {Semantics::Homomorphism, Semantics::Isomorphism}) {
      QueryResult result = db.query(c.query, {Backend::Cpu, semantics});
      REQUIRE(result.variables() == c.variables);
      auto expected = bruteForce(c, c.variables, semantics == Semantics::Isomorphism);
      CHECK(sortedLines(result) == expected);
      nonEmpty += !expected.empty();
    }
  }
  CHECK(nonEmpty > 100);
}
