#include <doctest/doctest.h>

#include "rdf/term.h"
#include "rdf/term_parts.h"

using gsparql::rdf::TermKind;
using gsparql::rdf::TermSplitter;

TEST_CASE("term splitter: IRIs and blank nodes") {
  TermSplitter split;
  auto& iri = split.split("<http://ex/caf\xC3\xA9#x>");
  CHECK(iri.kind == TermKind::Iri);
  CHECK(iri.value == "http://ex/caf\xC3\xA9#x");
  CHECK(iri.language.empty());
  CHECK(iri.datatype.empty());

  // rdf/term.h writes characters that IRIs cannot hold as \uXXXX.
  auto& odd = split.split("<http://ex/a\\u0020b\\u003E>");
  CHECK(odd.kind == TermKind::Iri);
  CHECK(odd.value == "http://ex/a b>");
  CHECK(odd.rawValue == "http://ex/a\\u0020b\\u003E");

  auto& blank = split.split("_:node-1.x");
  CHECK(blank.kind == TermKind::Blank);
  CHECK(blank.value == "node-1.x");
}

TEST_CASE("term splitter: literals") {
  TermSplitter split;
  auto& plain = split.split("\"hello world\"");
  CHECK(plain.kind == TermKind::Literal);
  CHECK(plain.value == "hello world");
  CHECK(plain.language.empty());
  CHECK(plain.datatype.empty());
  CHECK_FALSE(plain.valueUnescaped);

  auto& empty = split.split("\"\"");
  CHECK(empty.kind == TermKind::Literal);
  CHECK(empty.value.empty());

  auto& lang = split.split("\"colour\"@en-GB");
  CHECK(lang.value == "colour");
  CHECK(lang.language == "en-GB");
  CHECK(lang.datatype.empty());

  auto& typed = split.split("\"3.50\"^^<http://www.w3.org/2001/XMLSchema#decimal>");
  CHECK(typed.value == "3.50");
  CHECK(typed.language.empty());
  CHECK(typed.datatype == "http://www.w3.org/2001/XMLSchema#decimal");

  // An explicit xsd:string (not rdf/term.h form, but harmless) is a simple literal.
  auto& str = split.split("\"s\"^^<http://www.w3.org/2001/XMLSchema#string>");
  CHECK(str.value == "s");
  CHECK(str.datatype.empty());
}

TEST_CASE("term splitter: escapes are decoded") {
  TermSplitter split;
  auto& t = split.split("\"a\\\"b\\\\c\\nd\\re\tf\"@en");
  CHECK(t.value == "a\"b\\c\nd\re\tf");
  CHECK(t.rawValue == "a\\\"b\\\\c\\nd\\re\tf");
  CHECK(t.valueUnescaped);
  CHECK(t.language == "en");

  // A quote right before the end and a datatype with an escape.
  auto& q = split.split("\"say \\\"hi\\\"\"^^<http://ex/d\\u00E9>");
  CHECK(q.value == "say \"hi\"");
  CHECK(q.datatype == "http://ex/d\xC3\xA9");

  // Lenient: escapes canonical N-Triples does not use still decode.
  auto& lenient = split.split("\"\\t\\u00e9\\U0001F600\\'\"");
  CHECK(lenient.value == "\t\xC3\xA9\xF0\x9F\x98\x80'");
}

TEST_CASE("term splitter: round trip with rdf::literalTerm") {
  TermSplitter split;
  const char* lexicals[] = {"", "x", "\"", "\\", "a\nb\rc", "tab\there", "\xF0\x9F\x98\x80", "\\n literally"};
  for (const char* lex : lexicals) {
    std::string term = gsparql::rdf::literalTerm(lex, "", "http://ex/dt");
    auto& p = split.split(term);
    CHECK(p.value == lex);
    CHECK(p.datatype == "http://ex/dt");
    std::string withLang = gsparql::rdf::literalTerm(lex, "fr", "");
    auto& l = split.split(withLang);
    CHECK(l.value == lex);
    CHECK(l.language == "fr");
  }
}

TEST_CASE("term splitter: text that is not a term comes back whole") {
  TermSplitter split;
  auto& bad = split.split("not a term");
  CHECK(bad.kind == TermKind::Literal);
  CHECK(bad.value == "not a term");
  auto& quote = split.split("\"");
  CHECK(quote.value == "\"");
  auto& nothing = split.split("");
  CHECK(nothing.value.empty());
}

TEST_CASE("RDF 1.2: triple terms are split into their three terms, nested and with spaces in literals") {
  using gsparql::rdf::splitTripleTerm;
  using gsparql::rdf::TripleTermParts;
  const std::string inner = gsparql::rdf::tripleTerm("_:b", "<http://ex/p>", "\"a )>> b\"@EN");
  CHECK(inner == "<<( _:b <http://ex/p> \"a )>> b\"@EN )>>");
  const std::string outer = gsparql::rdf::tripleTerm("<http://ex/s>", "<http://ex/q>", inner);
  CHECK(gsparql::rdf::termKind(outer) == TermKind::Triple);
  TripleTermParts parts;
  REQUIRE(splitTripleTerm(outer, &parts));
  CHECK(parts.subject == "<http://ex/s>");
  CHECK(parts.predicate == "<http://ex/q>");
  CHECK(parts.object == inner);
  REQUIRE(splitTripleTerm(parts.object, &parts));
  CHECK(parts.subject == "_:b");
  CHECK(parts.object == "\"a )>> b\"@EN");
  // A key lower-cases the language tags inside, so @EN and @en make one term.
  CHECK(gsparql::rdf::keyDiffersFromTerm(outer));
  CHECK(gsparql::rdf::termKey(outer).ends_with("\"a )>> b\"@en )>> )>>"));

  for (const char* bad : {"<<( <a> <b> )>>", "<<( <a> <b> <c>", "<<( <a> <b> \"x )>>", "<<(<a> <b> <c>)>>",
                          "<<( <a> <b> <c> )>> "}) {
    CHECK_FALSE(splitTripleTerm(bad, &parts));
  }
  TermSplitter split;
  auto& triple = split.split(outer);
  CHECK(triple.kind == TermKind::Triple);
  CHECK(triple.value == outer);
}

TEST_CASE("RDF 1.2: a base direction is apart from the language tag") {
  TermSplitter split;
  const std::string term = gsparql::rdf::literalTerm("\xD9\x85", "ar--rtl");
  auto& literal = split.split(term);
  CHECK(literal.language == "ar");
  CHECK(literal.direction == "rtl");
  CHECK(split.split("\"x\"@en").direction.empty());
}
