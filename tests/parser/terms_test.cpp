// Terms as the parser writes them: prefixes, BASE, shorthand literals,
// escapes, and the triple abbreviations of section 4.
#include "helpers.h"
#include "parser/src/lexical.h"
#include "rdf/iri.h"

using namespace gsparql::sparql;
using namespace gsparql::sparql::test;
using gsparql::rdf::iriTerm;
using gsparql::rdf::literalTerm;

TEST_CASE("prefixed names expand, relative IRIs resolve against BASE, a is rdf:type") {
  Query q = parseQuery(
      "BASE <http://example.org/dir/doc>\n"
      "PREFIX p: <sub/>\n"
      "SELECT * { <x> a p:local\\.name ; <../up> <#frag> }");
  const auto& t = where(q).triples;
  REQUIRE(t.size() == 2);
  CHECK(t[0].subject == con(iriTerm("http://example.org/dir/x")));
  CHECK(t[0].predicate == con(iriTerm(gsparql::rdf::kRdfType)));
  CHECK(t[0].object == con(iriTerm("http://example.org/dir/sub/local.name")));
  CHECK(t[1].predicate == con(iriTerm("http://example.org/up")));
  CHECK(t[1].object == con(iriTerm("http://example.org/dir/doc#frag")));
}

TEST_CASE("RFC 3986 reference resolution examples (section 5.4)") {
  const std::string base = "http://a/b/c/d;p?q";
  CHECK(gsparql::rdf::resolveIri(base, "g") == "http://a/b/c/g");
  CHECK(gsparql::rdf::resolveIri(base, "./g") == "http://a/b/c/g");
  CHECK(gsparql::rdf::resolveIri(base, "g/") == "http://a/b/c/g/");
  CHECK(gsparql::rdf::resolveIri(base, "/g") == "http://a/g");
  CHECK(gsparql::rdf::resolveIri(base, "//g") == "http://g");
  // Absolute IRIs are kept as written (SPARQL 1.1, 4.1.1.1), dot segments included.
  CHECK(gsparql::rdf::resolveIri(base, "eXAMPLE://a/./b/../b/%63") == "eXAMPLE://a/./b/../b/%63");
  CHECK(gsparql::rdf::resolveIri(base, "?y") == "http://a/b/c/d;p?y");
  CHECK(gsparql::rdf::resolveIri(base, "#s") == "http://a/b/c/d;p?q#s");
  CHECK(gsparql::rdf::resolveIri(base, "") == "http://a/b/c/d;p?q");
  CHECK(gsparql::rdf::resolveIri(base, "..") == "http://a/b/");
  CHECK(gsparql::rdf::resolveIri(base, "../..") == "http://a/");
  CHECK(gsparql::rdf::resolveIri(base, "../../../g") == "http://a/g");
  CHECK(gsparql::rdf::resolveIri(base, "g:h") == "g:h");
}

TEST_CASE("keywords are case-insensitive") {
  Query lower = parse("select distinct ?s where { ?s :p ?o } order by ?s limit 3");
  Query upper = parse("SELECT DISTINCT ?s WHERE { ?s :p ?o } ORDER BY ?s LIMIT 3");
  CHECK(algebraToString(lower, {false}) == algebraToString(upper, {false}));
}

TEST_CASE("numeric and boolean shorthand get XSD datatypes, lexical form kept") {
  Query q = parse("SELECT * { ?s :p 42, -7, 4.20, 1.5e3, +3, true, FALSE }");
  const auto& t = where(q).triples;
  REQUIRE(t.size() == 7);
  CHECK(t[0].object.value == xsd("42", "integer"));
  CHECK(t[1].object.value == xsd("-7", "integer"));
  CHECK(t[2].object.value == xsd("4.20", "decimal"));
  CHECK(t[3].object.value == xsd("1.5e3", "double"));
  CHECK(t[4].object.value == xsd("+3", "integer"));
  CHECK(t[5].object.value == xsd("true", "boolean"));
  CHECK(t[6].object.value == xsd("false", "boolean"));
}

TEST_CASE("string forms and escapes are decoded into the canonical term") {
  Query q = parse(
      "SELECT * { ?s :p 'single', \"tab\\there\", \"\\u00E9\\U0001F600\", \"\"\"multi\nline \"quoted\" text\"\"\", "
      "'x'@en-GB, \"5\"^^:dt, \"s\"^^<http://www.w3.org/2001/XMLSchema#string> }");
  const auto& t = where(q).triples;
  REQUIRE(t.size() == 7);
  CHECK(t[0].object.value == "\"single\"");
  CHECK(t[1].object.value == literalTerm("tab\there"));
  CHECK(t[2].object.value == literalTerm("\xC3\xA9\xF0\x9F\x98\x80"));
  CHECK(t[3].object.value == literalTerm("multi\nline \"quoted\" text"));
  CHECK(t[4].object.value == literalTerm("x", "en-GB"));
  CHECK(t[5].object.value == literalTerm("5", {}, kEx + "dt"));
  CHECK(t[6].object.value == "\"s\"");  // xsd:string is the simple literal
}

TEST_CASE("semicolon and comma lists expand into one triple per object") {
  Query q = parse("SELECT * { ?s :p ?a, ?b ; :q ?c ; }");
  const auto& t = where(q).triples;
  REQUIRE(t.size() == 3);
  CHECK(t[1].subject == var("s"));
  CHECK(t[1].object == var("b"));
  CHECK(t[2].predicate == con(ex("q")));
}

TEST_CASE("blank node property lists and collections expand, blank nodes are not projected") {
  Query q = parse("SELECT * { ?s :p [ :q ?o ] . (1 ?x) :r _:b }");
  const auto& t = where(q).triples;
  REQUIRE(t.size() == 7);
  // [ :q ?o ] is a fresh blank node b with b :q ?o and ?s :p b
  CHECK(t[0].subject.kind == Term::Kind::Blank);
  CHECK(t[0].object == var("o"));
  CHECK(t[1].object == t[0].subject);
  // (1 ?x): c1 first 1; c1 rest c2; c2 first ?x; c2 rest nil; c1 :r _:b
  const std::string rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
  CHECK(t[2].predicate == con(iriTerm(rdf + "first")));
  CHECK(t[2].object == con(xsd("1", "integer")));
  CHECK(t[3].predicate == con(iriTerm(rdf + "rest")));
  CHECK(t[4].subject == t[3].object);
  CHECK(t[5].object == con(iriTerm(rdf + "nil")));
  CHECK(t[6].subject == t[2].subject);
  CHECK(t[6].object == Term::blank("b"));
  // SELECT * lists variables in order of first appearance: [ :q ?o ] is emitted before ?s :p [].
  CHECK(q.pattern->vars == std::vector<std::string>{"o", "s", "x"});
}

TEST_CASE("fresh names never capture names written in the query") {
  Query q = parse("SELECT * { ?_p0 :a/:b ?x . ?_b0 :c [] }");
  const auto& t = where(q).triples;
  REQUIRE(t.size() == 3);
  CHECK(t[0].object.value != "_p0");
  CHECK(t[2].object.value != "_b0");
}
