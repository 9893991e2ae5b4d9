// GROUP BY ?v of a BGP whose aggregates all count its solutions runs as a
// BgpGroupCount (engine/physical/bgp_group_count.h): the executor counts the
// rows per value of ?v where it finds them. Its groups and counts are a
// GroupBy's over the same rows (the same query with a SAMPLE as well, which
// keeps the GroupBy), under both semantics, for BGPs of one or two
// components, constants absent from the data, and counts of a variable; the
// CPU executor counts the leaves after the key's step as products.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "gsparql/database.h"
#include "gsparql/error.h"
#include "support/loaded_database.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

// 300 people who know and like one another at random, 40 things liked.
std::string randomGraph(std::mt19937& random) {
  std::string graph;
  for (size_t s = 0; s < 300; ++s) {
    const std::string subject = "<http://e/p" + std::to_string(s) + ">";
    for (size_t k = random() % 6; k > 0; --k) {
      graph += subject + " <http://e/knows> <http://e/p" + std::to_string(random() % 300) + "> .\n";
    }
    for (size_t k = random() % 4; k > 0; --k) {
      graph += subject + " <http://e/likes> <http://e/t" + std::to_string(random() % 40) + "> .\n";
    }
  }
  return graph;
}

// The rows of `query`, sorted, with its last `dropped` columns left out.
std::vector<std::string> rowsOf(const Database& db, const std::string& query, Semantics semantics, size_t dropped,
                                std::string* explain = nullptr) {
  QueryOptions options;
  options.backend = Backend::Cpu;
  options.semantics = semantics;
  options.explain = explain != nullptr;
  const QueryResult result = db.query(query, options);
  if (explain != nullptr) *explain = result.explain();
  std::vector<std::string> rows;
  result.forEachRow([&](std::span<const Term> row) {
    std::string line;
    for (size_t c = 0; c + dropped < row.size(); ++c) line += std::string(row[c].value_or("UNDEF")) + "\t";
    rows.push_back(line);
  });
  std::sort(rows.begin(), rows.end());
  return rows;
}

}  // namespace

TEST_CASE("GROUP BY a BGP's variable with counts gives a GroupBy's groups and counts") {
  std::mt19937 random(51);
  LoadedDatabase data(randomGraph(random));
  const std::vector<std::pair<std::string, std::string>> cases = {
      // key, then the pattern
      {"t", "?a <http://e/knows> ?b . ?b <http://e/likes> ?t"},
      {"b", "?a <http://e/knows> ?b . ?b <http://e/knows> ?c . ?c <http://e/likes> ?t"},
      {"a", "?a <http://e/knows> ?a"},
      // two components: every count multiplied by the other's rows
      {"t", "?a <http://e/likes> ?t . ?x <http://e/knows> <http://e/p7>"},
      // a constant absent from the data: no groups
      {"a", "?a <http://e/knows> <http://e/nobody>"},
      {"b", "<http://e/p3> <http://e/knows> ?b . ?b <http://e/knows> ?c"},
  };
  int groupsSeen = 0, leavesCounted = 0;
  for (const auto& [key, pattern] : cases) {
    for (const Semantics semantics : {Semantics::Homomorphism, Semantics::Isomorphism}) {
      const std::string counts = "SELECT ?" + key + " (COUNT(*) AS ?n) (COUNT(?" + key + ") AS ?m)";
      const std::string query = counts + " WHERE { " + pattern + " } GROUP BY ?" + key;
      const std::string reference = counts + " (SAMPLE(?" + key + ") AS ?s) WHERE { " + pattern + " } GROUP BY ?" + key;
      CAPTURE(query);
      CAPTURE(semantics == Semantics::Isomorphism);
      std::string explain, referenceExplain;
      const std::vector<std::string> rows = rowsOf(*data.db, query, semantics, 0, &explain);
      CHECK(rows == rowsOf(*data.db, reference, semantics, 1, &referenceExplain));
      CHECK(explain.find("BgpGroupCount by ?" + key) != std::string::npos);
      CHECK(referenceExplain.find("GroupBy") != std::string::npos);
      groupsSeen += static_cast<int>(rows.size());
      leavesCounted += explain.find("counted as products") != std::string::npos;
    }
  }
  CHECK(groupsSeen > 100);
  CHECK(leavesCounted > 0);  // some counts multiplied leaves' candidates, beside the rows binding the key
}

TEST_CASE("GROUP BY a predicate variable or with other aggregates stays a GroupBy") {
  std::mt19937 random(52);
  LoadedDatabase data(randomGraph(random));
  for (const std::string& query :
       {std::string("SELECT ?p (COUNT(*) AS ?n) WHERE { ?a ?p ?b } GROUP BY ?p"),
        std::string("SELECT ?t (COUNT(DISTINCT ?a) AS ?n) WHERE { ?a <http://e/likes> ?t } GROUP BY ?t")}) {
    CAPTURE(query);
    std::string explain;
    CHECK(!rowsOf(*data.db, query, Semantics::Homomorphism, 0, &explain).empty());
    CHECK(explain.find("BgpGroupCount") == std::string::npos);
  }
}

TEST_CASE("counts per value that outgrow the memory budget stop the query with QueryOutOfMemory") {
  std::mt19937 random(53);
  LoadedDatabase data(randomGraph(random));
  QueryOptions options;
  options.backend = Backend::Cpu;
  options.memoryBudgetBytes = 64;  // fewer bytes than a counter per vertex
  CHECK_THROWS_AS(data.db->query("SELECT ?t (COUNT(*) AS ?n) WHERE { ?a <http://e/likes> ?t } GROUP BY ?t", options),
                  QueryOutOfMemory);
}
