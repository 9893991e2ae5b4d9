// Rejected queries: position, token, expectation, and the caret rendering.
#include "helpers.h"

using namespace gsparql::sparql;
using namespace gsparql::sparql::test;

namespace {

struct InvalidCase {
  Position pos;
  std::string fragment;
  std::string query;
};

std::vector<InvalidCase> invalidCorpus() {
  std::istringstream in(readFile(std::string(GSPARQL_PARSER_TEST_DATA) + "/invalid_queries.txt"));
  std::vector<InvalidCase> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("### ", 0) == 0) {
      InvalidCase c;
      std::istringstream header(line.substr(4));
      char colon;
      header >> c.pos.line >> colon >> c.pos.column;
      std::getline(header >> std::ws, c.fragment);
      cases.push_back(c);
    } else if (!cases.empty()) {
      cases.back().query += (cases.back().query.empty() ? "" : "\n") + line;
    }
  }
  return cases;
}

}  // namespace

TEST_CASE("every query of the invalid corpus fails at its expected position") {
  auto cases = invalidCorpus();
  REQUIRE(cases.size() >= 18);
  for (const auto& c : cases) {
    CAPTURE(c.query);
    try {
      parseQuery(c.query);
      FAIL("accepted an invalid query");
    } catch (const SyntaxError& e) {
      CHECK(e.position() == c.pos);
      CHECK(std::string(e.what()).find(c.fragment) != std::string::npos);
    }
  }
}

TEST_CASE("a syntax error names the token, the expected tokens, and draws a caret") {
  try {
    parseQuery("SELECT * WHERE {\n  ?s ?p ?o .\n  FILTER ?o\n}");
    FAIL("accepted");
  } catch (const SyntaxError& e) {
    CHECK(e.position() == Position{3, 10});
    CHECK(e.offendingToken() == "?o");
    CHECK(e.expected().find("'('") != std::string::npos);
    std::string what = e.what();
    CHECK(what.rfind("3:10: syntax error at '?o', expected ", 0) == 0);
    CHECK(what.find("\n    FILTER ?o\n           ^") != std::string::npos);
  }
}

TEST_CASE("deep nesting is rejected with a clear error instead of exhausting the stack") {
  std::string deep = "SELECT * WHERE { FILTER(" + std::string(100000, '(') + "1" + std::string(100000, ')') + ") }";
  CHECK_THROWS_WITH_AS(parseQuery(deep), doctest::Contains("nesting deeper than"), SyntaxError);
  std::string groups;
  for (int i = 0; i < 50000; ++i) groups += "{";
  CHECK_THROWS_AS(parseQuery("SELECT * " + groups), SyntaxError);
  // Nesting within the limit parses.
  std::string ok = "SELECT * WHERE { FILTER(" + std::string(150, '(') + "1" + std::string(150, ')') + ") }";
  CHECK_NOTHROW(parseQuery(ok));
}

TEST_CASE("long flat queries do not recurse per triple") {
  std::string q = "SELECT * WHERE {";
  for (int i = 0; i < 20000; ++i) q += " ?s <p> ?o" + std::to_string(i) + " .";
  q += " }";
  CHECK(where(parseQuery(q)).triples.size() == 20000);
}

TEST_CASE("invalid UTF-8 and NUL bytes are rejected with a position") {
  CHECK_THROWS_WITH_AS(parseQuery("SELECT * {\n ?s ?p \"\xC3\x28\" }"), doctest::Contains("2:9: invalid UTF-8"),
                       SyntaxError);
  CHECK_THROWS_AS(parseQuery(std::string("SELECT * { ?s ?p \"a\0b\" }", 25)), SyntaxError);
}

TEST_CASE("empty input and a lone prologue are syntax errors") {
  CHECK_THROWS_AS(parseQuery(""), SyntaxError);
  CHECK_THROWS_AS(parseQuery("PREFIX : <http://e/>"), SyntaxError);
  CHECK_THROWS_AS(parseQuery("SELECT * { } LIMIT 99999999999999999999999"), SyntaxError);
}
