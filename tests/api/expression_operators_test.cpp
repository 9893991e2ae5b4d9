// What Extend and Filter do to evaluate less, each checked against the same
// query written so that it does not apply, on random data that repeats some
// terms and not others: they keep what they made of an expression of one
// variable by the key of its term (engine/physical/values_by_key.h; undone
// by making the expression read a second variable, which changes nothing of
// its value); the planner puts a FILTER below the last BIND it does not read;
// a Filter tests its conditions in the order of the share of rows each
// rejects (undone by one condition that holds them all); an aggregate of a
// plain variable reads its terms in place and passes DISTINCT values on by
// id (undone as the first).
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "gsparql/database.h"
#include "support/loaded_database.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

const std::string kPrefixes = "PREFIX e: <http://e/> PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> ";

// Objects of every kind: few distinct numbers and dates (repeated), many
// distinct strings (ASCII and not, tagged or not), IRIs, blank nodes.
std::string randomGraph(std::mt19937& random, size_t subjects) {
  const std::vector<std::string> words = {"apple", "Banana", "cherry", "día", "straße", "日本", "zeta", "a"};
  auto object = [&]() -> std::string {
    switch (random() % 8) {
      case 0: return "\"" + std::to_string(random() % 40) + "\"";
      case 1: return "\"" + std::to_string(random() % 40) + "\"^^<http://www.w3.org/2001/XMLSchema#integer>";
      case 2: return "\"19" + std::to_string(70 + random() % 30) + "-0" + std::to_string(1 + random() % 9) + "-2" +
                     std::to_string(random() % 9) + "\"";
      case 3: return "\"" + words[random() % words.size()] + " " + words[random() % words.size()] + " " +
                     std::to_string(random()) + "\"";
      case 4: return "\"" + words[random() % words.size()] + "\"@en";
      case 5: return "<http://e/o" + std::to_string(random() % 30) + ">";
      case 6: return "_:b" + std::to_string(random() % 10);
      default: return "\"" + words[random() % words.size()] + "\"";
    }
  };
  std::string graph;
  for (size_t s = 0; s < subjects; ++s) {
    for (size_t k = 0, n = 1 + random() % 3; k < n; ++k) graph += "<http://e/s" + std::to_string(s) + "> <http://e/p> " + object() + " .\n";
  }
  return graph;
}

struct Fixture : LoadedDatabase {
  using LoadedDatabase::LoadedDatabase;
  std::vector<std::string> rows(const std::string& query) const { return cpuRows(kPrefixes + query); }
};

// Expressions of ?o alone: casts, numbers, dates, strings, term tests, errors.
const std::vector<std::string> kExpressions = {
    "xsd:integer(?o)", "xsd:integer(?o) * 2 + 1", "xsd:integer(?o) > 20", "ABS(xsd:integer(?o) - 20) < 5",
    "xsd:date(?o)", "YEAR(xsd:date(?o))", "MONTH(xsd:date(?o)) = 2 && DAY(?o) >= 20", "LCASE(?o)",
    "STRLEN(?o)", "SUBSTR(?o, 2, 3)", "STRENDS(LCASE(?o), \"a\")", "CONTAINS(STRAFTER(?o, \" \"), \"a\")",
    "LANG(?o) = \"\"", "!isNumeric(?o)", "isIRI(?o) || isBlank(?o)", "!isLiteral(?o)", "STR(?o)",
    "SUBSTR(?o, 1, 1) NOT IN (\"a\", \"b\", \"d\")", "!!(STRLEN(?o) > 5)", "REGEX(?o, \"^[a-c]\", \"i\")"};

// The same value, read through ?s as well (always bound, so unchanged).
std::string alsoReadingS(const std::string& e) { return "IF(BOUND(?s), " + e + ", " + e + ")"; }

}  // namespace

TEST_CASE("BIND and FILTER of one variable give what they give when they read two") {
  std::mt19937 random(44);
  for (int graph = 0; graph < 3; ++graph) {
    Fixture fixture(randomGraph(random, 300));
    for (const std::string& e : kExpressions) {
      CAPTURE(e);
      const std::string pattern = "SELECT ?s ?o ?z { ?s e:p ?o BIND(";
      CHECK(fixture.rows(pattern + e + " AS ?z) }") == fixture.rows(pattern + alsoReadingS(e) + " AS ?z) }"));
      const std::string filter = "SELECT ?s ?o { ?s e:p ?o FILTER(";
      const std::vector<std::string> kept = fixture.rows(filter + e + ") }");
      CHECK(kept == fixture.rows(filter + alsoReadingS(e) + ") }"));
    }
  }
}

TEST_CASE("a FILTER below the last BIND it does not read keeps the rows it keeps above it") {
  std::mt19937 random(45);
  Fixture fixture(randomGraph(random, 400));
  for (const std::string& e : kExpressions) {
    CAPTURE(e);
    const std::string binds = "SELECT ?s ?a ?b { ?s e:p ?o BIND(" + e + " AS ?a) BIND(STRLEN(STR(?a)) AS ?b) FILTER(";
    // Reading ?b keeps the condition above both BINDs.
    CHECK(fixture.rows(binds + "BOUND(?a) && STR(?a) != \"x\") }") ==
          fixture.rows(binds + "BOUND(?a) && STR(?a) != \"x\" && (BOUND(?b) || !BOUND(?b))) }"));
  }
  // BNODE's labels name one node per row across consecutive BINDs: such a chain is not split.
  const auto rows = fixture.rows("SELECT ?x ?y { ?s e:p ?o BIND(BNODE(\"l\") AS ?x) BIND(BNODE(\"l\") AS ?y) FILTER(isBlank(?x)) }");
  REQUIRE(!rows.empty());
  for (const std::string& row : rows) {
    const size_t tab = row.find('\t');
    CHECK(row.substr(0, tab) == row.substr(tab + 1));
  }
}

TEST_CASE("a FILTER's conditions give the same rows in whatever order the Filter tests them") {
  std::mt19937 random(46);
  Fixture fixture(randomGraph(random, 1500));  // several reorderings (every 256 rows)
  for (size_t i = 0; i < kExpressions.size(); ++i) {
    const std::string conjunction = kExpressions[i] + " && " + kExpressions[(i * 7 + 3) % kExpressions.size()] + " && " +
                                    kExpressions[(i * 11 + 5) % kExpressions.size()];
    CAPTURE(conjunction);
    const std::string query = "SELECT ?s ?o { ?s e:p ?o FILTER(";
    CHECK(fixture.rows(query + conjunction + ") }") == fixture.rows(query + "IF(true, " + conjunction + ", false)) }"));
  }
}

TEST_CASE("aggregates of a plain variable, read in place and DISTINCT on ids, give what they give of an expression") {
  std::mt19937 random(49);
  Fixture fixture(randomGraph(random, 2000));
  for (const std::string aggregate : {"COUNT", "SUM", "AVG", "MIN", "MAX", "SAMPLE", "GROUP_CONCAT"}) {
    for (const std::string distinct : {"", "DISTINCT "}) {
      // Groups by the first digit of the subject's number; ?k alone: one group.
      for (const std::string key : {"?k", ""}) {
        auto query = [&](const std::string& argument) {
          return "SELECT " + key + " (" + aggregate + "(" + distinct + argument + ") AS ?a) (COUNT(" + distinct +
                 argument + ") AS ?n) { ?s e:p ?o BIND(SUBSTR(STR(?s), 11, 1) AS ?k) }" +
                 (key.empty() ? "" : " GROUP BY ?k");
        };
        CAPTURE(query("?o"));
        const std::vector<std::string> plain = fixture.rows(query("?o"));
        CHECK(plain.size() == (key.empty() ? 1 : 10));
        CHECK(plain == fixture.rows(query(alsoReadingS("?o"))));
      }
    }
  }
}
