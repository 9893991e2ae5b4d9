// The size and depth limits of parseQuery, and large queries within them.
#include "helpers.h"

namespace gsparql::sparql::test {
namespace {

std::string repeat(const std::string& piece, int times, const std::string& separator = " ") {
  std::string out;
  for (int i = 0; i < times; ++i) out += (i ? separator : "") + piece;
  return out;
}

// `text` padded with a comment to exactly `bytes` bytes.
std::string paddedTo(std::string text, std::size_t bytes) {
  text += "\n#";
  text.append(bytes - text.size(), 'x');
  return text;
}

}  // namespace

TEST_CASE("a query text longer than the size limit is rejected with its size, the limit and where it is crossed") {
  const std::string query = "SELECT * WHERE { ?s ?p ?o }";
  CHECK_NOTHROW(parseQuery(paddedTo(query, kMaxQueryBytes)));
  try {
    parseQuery(paddedTo(query, kMaxQueryBytes + 1));
    FAIL("accepted a query over the limit");
  } catch (const SyntaxError& e) {
    CHECK(e.message() == "query text of 1048577 bytes is longer than the limit of 1048576 bytes "
                         "(ParseOptions::maxQueryBytes)");
    CHECK(e.position() == Position{2, static_cast<std::uint32_t>(kMaxQueryBytes - query.size())});
  }
  // The limit is the caller's to choose.
  CHECK_THROWS_WITH_AS(parseQuery(query, {.maxQueryBytes = 10}), doctest::Contains("limit of 10 bytes"), SyntaxError);
  CHECK_NOTHROW(parseQuery(paddedTo(query, 2 * kMaxQueryBytes), {.maxQueryBytes = 2 * kMaxQueryBytes}));
}

TEST_CASE("chains of operators or group elements deeper than the limit are rejected where they cross it") {
  const std::string plus = "SELECT * WHERE { FILTER(" + repeat("?o", kMaxChainDepth + 2, "+") + ") }";
  try {
    parseQuery(plus);
    FAIL("accepted a chain over the limit");
  } catch (const SyntaxError& e) {
    CHECK(e.message().find("more than " + std::to_string(kMaxChainDepth) + " operators or group elements") == 0);
    CHECK(e.offendingToken() == "+");
    CHECK(e.position().line == 1);
    CHECK(plus.at(e.position().column - 1) == '+');
  }
  // UNION and OPTIONAL chains nest the algebra the same way.
  CHECK_THROWS_AS(parseQuery("SELECT * WHERE { " + repeat("{ ?s ?p ?o }", kMaxChainDepth, " UNION ") + " }"),
                  SyntaxError);
  CHECK_THROWS_AS(parseQuery("SELECT * WHERE { ?s ?p ?o " + repeat("OPTIONAL { ?s ?q ?r }", kMaxChainDepth) + " }"),
                  SyntaxError);
  // SPARQL 1.2: !!x nests, and so do triple terms and reified triples.
  CHECK_THROWS_AS(parseQuery("SELECT * WHERE { ?s ?p ?o FILTER(" + repeat("!", kMaxChainDepth + 2) + "?o) }"),
                  SyntaxError);
  CHECK_THROWS_WITH_AS(parseQuery("SELECT * WHERE { ?s ?p " + repeat("<<( ?s ?p ", kMaxNestingDepth + 1) + "?o" +
                                  repeat(" )>>", kMaxNestingDepth + 1) + " }"),
                       doctest::Contains("nesting deeper"), SyntaxError);
  CHECK_THROWS_WITH_AS(parseQuery("SELECT * WHERE { " + repeat("<< ", kMaxNestingDepth + 1) + "?s ?p ?o >>" +
                                  repeat(" ?p ?o >>", kMaxNestingDepth) + " ?q ?z }"),
                       doctest::Contains("nesting deeper"), SyntaxError);
  CHECK_NOTHROW(parseQuery("SELECT * WHERE { " + repeat("<< ", 50) + "?s ?p ?o >>" + repeat(" ?p ?o >>", 49) + " ?q ?z }"));
  // Chains within one bracket count along the path, not across siblings.
  CHECK_NOTHROW(parseQuery("SELECT * WHERE { ?s ?p ?o " + repeat("FILTER(?o + 1 > 2)", kMaxChainDepth) + " }"));
}

TEST_CASE("the deepest chains allowed parse, print and are freed without exhausting the stack") {
  const Query sum = parseQuery("SELECT * WHERE { ?s ?p ?o FILTER(" + repeat("?o", kMaxChainDepth - 10, "+") + ") }");
  CHECK(algebraToString(sum).size() > 0);
  CHECK(toSparql(sum).size() > 0);
  // Comparisons between the ||s add a level each but cannot chain: not counted.
  const Query anyOf = parseQuery("SELECT * WHERE { ?s ?p ?o FILTER(" + repeat("!(?o = 1)", kMaxChainDepth - 10, " || ") + ") }");
  CHECK(toSparql(anyOf).size() > 0);
  const Query unions = parseQuery("SELECT * WHERE { " + repeat("{ ?s ?p ?o }", kMaxChainDepth / 2 - 10, " UNION ") + " }");
  CHECK(where(unions).kind == Op::Kind::Union);
  CHECK(algebraToString(unions).size() > 0);
}

TEST_CASE("5000 FILTERs between 5000 triple patterns: one BGP under one Filter of 5000 conditions") {
  std::string body;
  for (int i = 0; i < 5000; ++i) {
    const std::string n = std::to_string(i);
    body += "?s :p" + n + " ?o" + n + " . FILTER(?o" + n + " > " + n + ") ?s :p" + n + " ?o" + n + " . ";
  }
  const Query q = parse("SELECT * WHERE { " + body + "}");
  const Op& filter = where(q);
  REQUIRE(filter.kind == Op::Kind::Filter);
  CHECK(filter.exprs.size() == 5000);
  const Op& bgp = *filter.children[0];
  REQUIRE(bgp.kind == Op::Kind::Bgp);
  CHECK(bgp.triples.size() == 5000);  // each pattern written twice, kept once
  CHECK(bgp.queryGraph->edges().size() == 5000);
  CHECK(bgp.queryGraph->vertices().size() == 5001);
}

TEST_CASE("BIND sees every variable the elements before it brought into scope, and only those") {
  CHECK_THROWS_WITH(parse("SELECT * WHERE { ?s :p ?a FILTER(true) ?s :q ?b BIND(1 AS ?b) }"),
                    doctest::Contains("BIND assigns ?b"));
  CHECK_THROWS_WITH(parse("SELECT * WHERE { { ?s :p ?a } UNION { ?s :q ?b } BIND(1 AS ?b) }"),
                    doctest::Contains("BIND assigns ?b"));
  CHECK_THROWS_WITH(parse("SELECT * WHERE { ?s :p ?a OPTIONAL { ?s :q ?b } BIND(1 AS ?b) }"),
                    doctest::Contains("BIND assigns ?b"));
  CHECK_THROWS_WITH(parse("SELECT * WHERE { BIND(1 AS ?a) ?s :p ?b BIND(2 AS ?a) }"),
                    doctest::Contains("BIND assigns ?a"));
  CHECK_NOTHROW(parse("SELECT * WHERE { ?s :p ?a MINUS { ?s :q ?b } BIND(1 AS ?b) }"));
  CHECK_NOTHROW(parse("SELECT * WHERE { ?s :p ?a { ?s :q ?b BIND(1 AS ?c) } BIND(2 AS ?d) }"));
}

}  // namespace gsparql::sparql::test
