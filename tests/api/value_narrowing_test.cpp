// A FILTER of one variable over a BGP, decided once per term of the
// variable's domain and the variable limited to the terms that pass
// (engine/planner/value_narrowing.h): every query's rows against the same
// query written so that it does not apply (the condition reads a second
// variable, which changes nothing of its value), on data whose objects of
// every kind repeat, in the default graph, a named graph and after updates;
// and EXPLAIN says what was limited where the condition is selective.
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

// About 60 distinct objects of every kind, each on many subjects' e:p (so
// that a BGP has several rows per term: the planner narrows), and an e:q
// for a second pattern.
std::string repeatingGraph(std::mt19937& random, size_t subjects, const std::string& graph = "") {
  const std::vector<std::string> words = {"apple", "Banana", "cherry", "día", "straße", "日本", "zeta", "a"};
  auto object = [&]() -> std::string {
    switch (random() % 8) {
      case 0: return "\"" + std::to_string(random() % 12) + "\"";
      case 1: return "\"" + std::to_string(random() % 12) + "\"^^<http://www.w3.org/2001/XMLSchema#integer>";
      case 2: return "\"19" + std::to_string(70 + random() % 3) + "-0" + std::to_string(1 + random() % 3) + "-2" +
                     std::to_string(random() % 2) + "\"";
      case 3: return "\"" + words[random() % words.size()] + " " + words[random() % 2] + "\"";
      case 4: return "\"" + words[random() % words.size()] + "\"@en";
      case 5: return "<http://e/o" + std::to_string(random() % 8) + ">";
      case 6: return "_:b" + std::to_string(random() % 4);
      default: return "\"" + words[random() % words.size()] + "\"";
    }
  };
  const std::string in = graph.empty() ? " .\n" : " <" + graph + "> .\n";
  std::string text;
  for (size_t s = 0; s < subjects; ++s) {
    const std::string subject = "<http://e/s" + std::to_string(s) + ">";
    for (size_t k = 0, n = 1 + random() % 3; k < n; ++k) text += subject + " <http://e/p> " + object() + in;
    if (random() % 2 == 0) text += subject + " <http://e/q> \"" + std::to_string(random() % 5) + "\"" + in;
  }
  return text;
}

// Conditions of ?o alone: casts, numbers, dates, strings, term tests, errors.
const std::vector<std::string> kConditions = {
    "xsd:integer(?o) > 9", "ABS(xsd:integer(?o) - 5) < 2", "xsd:integer(?o) = 3", "YEAR(xsd:date(?o)) = 1971",
    "MONTH(xsd:date(?o)) = 2 && DAY(?o) >= 20", "STRLEN(?o) > 6", "STRENDS(LCASE(?o), \"a\")",
    "CONTAINS(STRAFTER(?o, \" \"), \"a\")", "LANG(?o) = \"en\"", "!isNumeric(?o)", "isIRI(?o) || isBlank(?o)",
    "isBlank(?o)", "?o = e:o3", "SUBSTR(?o, 1, 1) NOT IN (\"a\", \"b\", \"d\")", "REGEX(?o, \"^[a-c]\", \"i\")",
    "xsd:integer(?o) > 100", "false && STRLEN(?o) > 0"};

// The same value, read through ?s as well (always bound, so unchanged): not narrowed.
std::string alsoReadingS(const std::string& e) { return "IF(BOUND(?s), " + e + ", " + e + ")"; }

// The queries each condition is tried in; `%` stands for the condition.
const std::vector<std::string> kQueries = {
    "SELECT ?s ?o { ?s e:p ?o FILTER(%) }",
    "SELECT ?s ?o ?r { ?s e:p ?o . ?s e:q ?r FILTER(%) }",
    "SELECT (COUNT(*) AS ?n) { ?s e:p ?o FILTER(%) }",
    "SELECT ?s ?o { GRAPH <http://e/g> { ?s e:p ?o FILTER(%) } }"};

std::string withCondition(std::string query, const std::string& condition) {
  return query.replace(query.find('%'), 1, condition);
}

std::string explainOf(const Database& db, const std::string& query) {
  QueryOptions options;
  options.backend = Backend::Cpu;
  options.explain = true;
  return db.query(kPrefixes + query, options).explain();
}

// Checks every condition in every query; returns how many were narrowed.
int checkEveryCondition(const LoadedDatabase& data) {
  int narrowed = 0;
  for (const std::string& condition : kConditions) {
    for (const std::string& query : kQueries) {
      CAPTURE(withCondition(query, condition));
      const std::vector<std::string> rows = data.cpuRows(kPrefixes + withCondition(query, condition));
      CHECK(rows == data.cpuRows(kPrefixes + withCondition(query, alsoReadingS(condition))));
      const std::string explain = explainOf(*data.db, withCondition(query, condition));
      narrowed += explain.find("?o limited to ") != std::string::npos;
    }
  }
  return narrowed;
}

}  // namespace

TEST_CASE("a FILTER of one variable decided per term of its domain gives the rows it gives per row") {
  std::mt19937 random(61);
  LoadedDatabase data(repeatingGraph(random, 1500) + repeatingGraph(random, 700, "http://e/g"), "data.nq");
  // Most conditions keep a few of the ~60 terms: planned as a limit.
  CHECK(checkEveryCondition(data) >= static_cast<int>(kConditions.size()));
}

TEST_CASE("narrowing reads the snapshot's domain: terms an update added or removed, not the decisions kept before") {
  std::mt19937 random(62);
  LoadedDatabase data(repeatingGraph(random, 1200) + repeatingGraph(random, 500, "http://e/g"), "data.nq");
  checkEveryCondition(data);  // decisions kept for this snapshot, which the next must not reuse
  Database::update(data.dir / "db",
                   kPrefixes + "INSERT DATA { e:new1 e:p \"1971-02-25\" . e:new2 e:p \"77\"^^xsd:integer . "
                               "GRAPH <http://e/g> { e:new3 e:p e:o99 } } ;"
                               "DELETE WHERE { ?s e:p \"3\"^^xsd:integer }");
  data.db.emplace(data.dir / "db");
  checkEveryCondition(data);
  const auto added = data.cpuRows(kPrefixes + "SELECT ?s { ?s e:p ?o FILTER(xsd:integer(?o) > 50) }");
  CHECK(added == std::vector<std::string>{"<http://e/new2>"});
  CHECK(data.cpuRows(kPrefixes + "SELECT ?s { ?s e:p ?o FILTER(xsd:integer(?o) = 3) }").size() ==
        data.cpuRows(kPrefixes + "SELECT ?s { ?s e:p \"3\" }").size());
}

TEST_CASE("a condition no term of the domain passes leaves the BGP without rows, and where all pass none is set") {
  std::mt19937 random(63);
  LoadedDatabase data(repeatingGraph(random, 1500));
  const std::string none = "SELECT ?s ?o { ?s e:p ?o FILTER(xsd:integer(?o) > 1000) }";
  CHECK(data.cpuRows(kPrefixes + none).empty());
  CHECK(explainOf(*data.db, none).find("?o limited to 0 of ") != std::string::npos);
  // Every term is an IRI, a blank node or a literal: nothing to limit.
  const std::string all = "SELECT ?s ?o { ?s e:p ?o FILTER(isIRI(?o) || isBlank(?o) || isLiteral(?o)) }";
  CHECK(explainOf(*data.db, all).find("limited to") == std::string::npos);
  CHECK(data.cpuRows(kPrefixes + all).size() == data.cpuRows(kPrefixes + "SELECT ?s ?o { ?s e:p ?o }").size());
}

TEST_CASE("a condition on BINDs' variables narrows what they are computed from, but not where it asks BOUND") {
  std::mt19937 random(64);
  LoadedDatabase data(repeatingGraph(random, 1500));
  // Each: the BINDs, the condition, and whether it narrows.
  struct Case {
    std::string binds, condition;
    bool narrows;
  };
  const std::vector<Case> cases = {
      {"BIND(xsd:integer(?o) AS ?v)", "?v > 5", true},
      {"BIND(xsd:integer(?o) AS ?v)", "COALESCE(?v, -1) < 0", true},  // the cast's errors read as unbound
      {"BIND(xsd:integer(?o) AS ?v)", "ABS(?v - 6) < 2 && ROUND(?v / 3) = FLOOR(?v / 3)", true},
      {"BIND(xsd:date(?o) AS ?d) BIND(YEAR(?d) AS ?y)", "?y = 1971 && MONTH(?d) = 2", true},
      {"BIND(STRLEN(STR(?o)) AS ?n) BIND(?n * 2 AS ?m)", "?m > 12", true},
      {"BIND(xsd:integer(?o) AS ?v)", "!BOUND(?v)", false},
      {"BIND(xsd:integer(?o) AS ?v)", "IF(BOUND(?v), ?v > 5, true)", false},
      {"BIND(xsd:integer(?o) AS ?v)", "?v > 5 || RAND() < 0", false},  // RAND: impure
  };
  for (const Case& c : cases) {
    const std::string query = "SELECT ?s ?o { ?s e:p ?o " + c.binds + " FILTER(" + c.condition + ") }";
    CAPTURE(query);
    const std::vector<std::string> rows = data.cpuRows(kPrefixes + query);
    CHECK(rows == data.cpuRows(kPrefixes + "SELECT ?s ?o { ?s e:p ?o " + c.binds + " FILTER(" +
                               alsoReadingS(c.condition) + ") }"));
    CHECK((explainOf(*data.db, query).find("?o limited to ") != std::string::npos) == c.narrows);
  }
}
