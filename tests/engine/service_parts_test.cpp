// SERVICE's parts without a network: the results reader, the query text
// sent, and the endpoint check (the exchanges themselves: tests/server/service_test.cpp).
#include <doctest/doctest.h>

#include "engine/service/endpoint_policy.h"
#include "engine/service/remote_failure.h"
#include "engine/service/remote_query.h"
#include "engine/service/sparql_results.h"
#include "gsparql/error.h"
#include "parser/parse.h"

namespace gsparql::engine::service {
namespace {

using Row = std::vector<std::optional<std::string>>;
const std::string kInteger = "<http://www.w3.org/2001/XMLSchema#integer>";

TEST_CASE("SPARQL JSON results: terms in the engine's form, variables a binding adds, booleans") {
  const SparqlResults r = readJsonResults(R"({"head": {"vars": ["s", "o"]}, "results": {"bindings": [
      {"s": {"type": "uri", "value": "http://x/a"}, "o": {"type": "literal", "value": "chat \"x\"", "xml:lang": "fr-CA"}},
      {"s": {"type": "bnode", "value": "b0"}, "o": {"type": "typed-literal", "value": "7", "datatype": "http://www.w3.org/2001/XMLSchema#integer"}},
      {"extra": {"type": "literal", "value": "plain", "datatype": "http://www.w3.org/2001/XMLSchema#string"}}]}})");
  CHECK(r.variables == std::vector<std::string>{"s", "o", "extra"});
  REQUIRE(r.rows.size() == 3);
  CHECK(r.rows[0] == Row{"<http://x/a>", "\"chat \\\"x\\\"\"@fr-CA", std::nullopt});
  CHECK(r.rows[1] == Row{"_:b0", "\"7\"^^" + kInteger, std::nullopt});
  CHECK(r.rows[2] == Row{std::nullopt, std::nullopt, "\"plain\""});
  CHECK(readJsonResults(R"({"head": {}, "boolean": true})").boolean == true);
}

TEST_CASE("SPARQL JSON results: what is malformed is a RemoteFailure saying what") {
  const std::pair<const char*, const char*> cases[] = {
      {"[1]", "not an object"},
      {R"({"head": {}})", "no results object"},
      {R"({"results": {"bindings": [{"x": {"type": "uri"}}]}})", "lacks type or value"},
      {R"({"results": {"bindings": [{"x": {"type": "triple", "value": "t"}}]}})", "a bad or too deeply nested triple"},
      {R"({"results": {"bindings": [{"x": {"type": "triple", "value": {"subject": {"type": "literal", "value": "a"},
          "predicate": {"type": "uri", "value": "http://ex/p"}, "object": {"type": "uri", "value": "http://ex/o"}}}}]}})",
       "a triple term with a bad subject or predicate"},
      {R"({"results": {"bindings": [{"x": {"type": "literal", "value": "a", "xml:lang": "en", "its:dir": "up"}}]}})",
       "bad base direction 'up'"},
      {R"({"results": {"bindings": [{"x": {"type": "literal", "value": "a", "xml:lang": "en fr"}}]}})", "bad language tag"},
      {R"({"results": {"bindings": [{"x": {"type": "literal", "value": "a", "xml:lang": "en", "datatype": "http://d"}}]}})",
       "a language and a datatype"},
      {R"({"results": {"bindings": [{"x": {"type": "bnode", "value": ""}}]}})", "a blank node without a label"},
      {R"({"results": {"bindings": [{"x": {"type": "uri", "value": 3}}]}})", "is not a string"}};
  for (const auto& [text, reason] : cases) {
    CAPTURE(text);
    CHECK_THROWS_WITH_AS(readJsonResults(text), doctest::Contains(reason), RemoteFailure);
  }
}

TEST_CASE("SPARQL XML results: terms, booleans, and no entity of the document expanded") {
  const SparqlResults r = readXmlResults(R"(<?xml version="1.0"?>
<sparql xmlns="http://www.w3.org/2005/sparql-results#"><head><variable name="x"/></head><results>
  <result><binding name="x"><literal datatype="http://www.w3.org/2001/XMLSchema#integer"> 42 </literal></binding></result>
  <result><binding name="x"><uri> http://x/a </uri></binding></result>
  <result></result></results></sparql>)");
  CHECK(r.rows == std::vector<Row>{{"\" 42 \"^^" + kInteger}, {"<http://x/a>"}, {std::nullopt}});
  CHECK(readXmlResults("<sparql><head/><boolean> false </boolean></sparql>").boolean == false);
  // An external entity (XXE) is not read: the document is refused or the entity stays out.
  try {
    const SparqlResults xxe = readXmlResults(R"(<?xml version="1.0"?>
<!DOCTYPE sparql [<!ENTITY secret SYSTEM "file:///etc/hostname">]>
<sparql><head><variable name="x"/></head><results><result><binding name="x"><literal>[&secret;]</literal></binding></result></results></sparql>)");
    CHECK(xxe.rows == std::vector<Row>{{"\"[]\""}});
  } catch (const RemoteFailure&) {
  }
  CHECK_THROWS_WITH_AS(readXmlResults("<html/>"), doctest::Contains("not <sparql>"), RemoteFailure);
}

TEST_CASE("SPARQL 1.2 results: triple terms, nested, and base directions, in JSON and XML, depth bounded") {
  const std::string expected = R"(<<( <http://ex/s> <http://ex/p> <<( _:b <http://ex/q> "x"@ar--rtl )>> )>>)";
  const SparqlResults json = readJsonResults(R"({"head": {"vars": ["t"]}, "results": {"bindings": [{"t": {"type": "triple",
    "value": {"subject": {"type": "uri", "value": "http://ex/s"}, "predicate": {"type": "uri", "value": "http://ex/p"},
    "object": {"type": "triple", "value": {"subject": {"type": "bnode", "value": "b"},
      "predicate": {"type": "uri", "value": "http://ex/q"},
      "object": {"type": "literal", "value": "x", "xml:lang": "ar", "its:dir": "rtl"}}}}}}]}})");
  REQUIRE(json.rows.size() == 1);
  CHECK(json.rows[0][0] == expected);
  const SparqlResults xml = readXmlResults(R"(<?xml version="1.0"?>
<sparql xmlns="http://www.w3.org/2005/sparql-results#" xmlns:its="http://www.w3.org/2005/11/its"><head><variable name="t"/></head>
<results><result><binding name="t"><triple><subject><uri>http://ex/s</uri></subject><predicate><uri>http://ex/p</uri></predicate>
<object><triple><subject><bnode>b</bnode></subject><predicate><uri>http://ex/q</uri></predicate>
<object><literal xml:lang="ar" its:dir="rtl">x</literal></object></triple></object></triple></binding></result></results></sparql>)");
  REQUIRE(xml.rows.size() == 1);
  CHECK(xml.rows[0][0] == expected);
  std::string deep = R"({"type": "uri", "value": "http://ex/o"})";
  for (int i = 0; i < 100; ++i) {
    deep = R"({"type": "triple", "value": {"subject": {"type": "uri", "value": "http://ex/s"}, )"
           R"("predicate": {"type": "uri", "value": "http://ex/p"}, "object": )" + deep + "}}";
  }
  CHECK_THROWS_WITH_AS(readJsonResults(R"({"results": {"bindings": [{"t": )" + deep + "}]}}"),
                       doctest::Contains("too deeply nested"), RemoteFailure);
}

TEST_CASE("the results format comes from the media type, or from the body where that names neither") {
  const char* json = R"({"head": {}, "boolean": true})";
  CHECK(readResults("application/sparql-results+json; charset=utf-8", json).boolean == true);
  CHECK(readResults("text/plain", json).boolean == true);
  CHECK(readResults("", "<sparql><boolean>true</boolean></sparql>").boolean == true);
  CHECK_THROWS_WITH_AS(readResults("text/csv", "s\n<http://x/>"),
                       doctest::Contains("neither SPARQL JSON nor SPARQL XML results (Content-Type: text/csv)"),
                       RemoteFailure);
}

TEST_CASE("the query sent is SELECT * of the pattern with the outer values as trailing VALUES, and parses back") {
  const sparql::Query q = sparql::parseQuery(
      "SELECT * { ?s <http://x/p> ?o SERVICE <http://e/> { ?s <http://x/q> ?v OPTIONAL { ?v <http://x/r> ?w } "
      "FILTER(?v != 3) } }");
  const sparql::OpPtr service = q.pattern->children[0]->children[1];
  REQUIRE(service->kind == sparql::Op::Kind::Service);
  sparql::Table values;
  values.vars = {"s"};
  values.rows = {{"<http://x/a>"}, {std::nullopt}};
  const std::string text = remoteQueryText(service->children[0], values);
  CHECK(text.starts_with("SELECT *\nWHERE {\n"));
  CHECK(text.find("VALUES (?s) {\n  (<http://x/a>)\n  (UNDEF)\n}") != std::string::npos);
  const sparql::Query back = sparql::parseQuery(text);
  CHECK(sparql::inScopeVariables(*back.pattern) == std::vector<std::string>{"s", "v", "w"});
  CHECK(remoteQueryText(service->children[0], {}).find("VALUES") == std::string::npos);
}

TEST_CASE("endpoints: http and https only, and an allowed prefix ends at a '/' or '?'") {
  CHECK_NOTHROW(checkEndpoint("HTTPS://e/sparql", ServiceAccess{}));
  for (const char* url : {"file:///etc/passwd", "ftp://e/", "gopher://e/", "e/sparql"}) {
    CHECK_THROWS_WITH_AS(checkEndpoint(url, ServiceAccess{}), doctest::Contains("only http and https"), QueryError);
  }
  ServiceAccess some = ServiceAccess::none();
  some.allowed = {"http://a/sparql", "http://b/"};
  for (const char* url : {"http://a/sparql", "http://a/sparql?default-graph-uri=x", "http://a/sparql/2", "http://b/x"}) {
    CHECK_NOTHROW(checkEndpoint(url, some));
  }
  for (const char* url : {"http://a/sparqlx", "http://a/", "http://b.evil/", "https://a/sparql"}) {
    CHECK_THROWS_WITH_AS(checkEndpoint(url, some), doctest::Contains("is not an allowed endpoint"), QueryError);
  }
}

}  // namespace
}  // namespace gsparql::engine::service
