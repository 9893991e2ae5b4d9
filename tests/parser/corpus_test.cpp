// Query corpora kept in the repository: WatDiv (one query per template),
// one query per construct, and the pretty-printer round trip over both.
#include <regex>
#include <set>

#include "helpers.h"

using namespace gsparql::sparql;
using namespace gsparql::sparql::test;

namespace {

std::string algebraOf(const Query& q) { return algebraToString(q, {false}); }

// Expectations read from the WatDiv text itself, independently of the parser:
// the variables on the SELECT line and the lines that are triple patterns.
std::vector<std::string> selectLineVars(const std::string& text) {
  std::string head = text.substr(0, text.find("WHERE"));
  std::vector<std::string> vars;
  std::regex var("\\?(\\w+)");
  for (auto it = std::sregex_iterator(head.begin(), head.end(), var); it != std::sregex_iterator(); ++it) {
    vars.push_back((*it)[1]);
  }
  return vars;
}

std::size_t tripleLines(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  std::size_t n = 0;
  while (std::getline(in, line)) n += line.size() > 2 && line.substr(line.size() - 2) == " .";
  return n;
}

}  // namespace

TEST_CASE("every WatDiv template parses into one connected BGP under a projection") {
  auto files = dataFiles("watdiv");
  REQUIRE(files.size() >= 20);
  std::set<std::string> templates;
  for (const auto& f : files) {
    CAPTURE(f);
    std::string text = readFile(f);
    templates.insert(f.filename().string().substr(0, 2));
    Query q = parseQuery(text);
    REQUIRE(q.pattern->kind == Op::Kind::Project);
    CHECK(q.pattern->vars == selectLineVars(text));
    const Op& bgp = where(q);
    REQUIRE(bgp.kind == Op::Kind::Bgp);
    CHECK(bgp.triples.size() == tripleLines(text));
    QueryGraph g = QueryGraph::fromBgp(bgp.triples);
    CHECK(g.edges().size() == bgp.triples.size());
    CHECK(g.components().size() == 1);
  }
  CHECK(templates.size() == 20);
}

TEST_CASE("every query of the valid corpus parses") {
  auto files = dataFiles("valid");
  REQUIRE(files.size() >= 15);
  for (const auto& f : files) {
    CAPTURE(f);
    CHECK_NOTHROW(parseQuery(readFile(f)));
  }
}

TEST_CASE("pretty-printed SPARQL parses back to the same algebra") {
  std::vector<std::string> queries;
  for (const char* dir : {"valid", "watdiv"}) {
    for (const auto& f : dataFiles(dir)) queries.push_back(readFile(f));
  }
  queries.push_back("PREFIX : <http://e/> SELECT * { OPTIONAL { { ?a :b ?c FILTER(?c) } FILTER(?a) } }");
  queries.push_back("PREFIX : <http://e/> SELECT * { { ?a :b ?c FILTER(?c) } FILTER(?a) }");
  // A filter of a group inside the OPTIONAL's (W3C optional-filter/expr-5): not the LeftJoin's condition.
  queries.push_back("PREFIX : <http://e/> SELECT * { ?b :t ?t OPTIONAL { { ?b :p ?p FILTER(?t = 2) } } }");
  // An escaped NUL: the term form keeps it raw, the printer must escape it again.
  queries.push_back("SELECT * { ?s <http://e/p> 'a\\u0000b' FILTER(?s != 'c\\u0000') }");
  queries.push_back("SELECT * { VALUES ?v { 'a\\u0000b' } }");
  queries.push_back("PREFIX : <http://e/> SELECT (1 AS ?x) ?y (2 AS ?z) { ?y :p ?q BIND(3 AS ?w) }");
  queries.push_back("PREFIX : <http://e/> SELECT ?s { ?s :p ?o } VALUES ?s { :a :b }");
  queries.push_back("PREFIX : <http://e/> ASK { ?s :p ?o } ORDER BY ?o LIMIT 1");
  queries.push_back("PREFIX : <http://e/> SELECT (COUNT(*) AS ?n) { } HAVING (COUNT(*) > 0)");
  for (const auto& text : queries) {
    CAPTURE(text);
    Query q = parseQuery(text);
    std::string printed = toSparql(q);
    CAPTURE(printed);
    Query again = parseQuery(printed);
    CHECK(algebraOf(again) == algebraOf(q));
  }
}
