// The direct reader of SELECT queries over one group of triples
// (parser/src/bgp_select_reader.h) against the grammar's parser and walker:
// wherever it reads a text, the same Query (algebra with positions, form,
// prefixes, base); where it does not, parseQuery gives the grammar's result
// or error. On the corpora, on edge cases, and on random near-miss queries.
#include <random>

#include "helpers.h"
#include "parser/fuzz/query_description.h"
#include "parser/src/parse_paths.h"

using namespace gsparql::sparql;

namespace {

using fuzz::describedQuery;

// The grammar's result, or its error as text.
std::string byGrammar(const std::string& text, const ParseOptions& options = {}) {
  try {
    return describedQuery(parseQueryWithGrammar(text, options));
  } catch (const SyntaxError& e) {
    return std::string("error: ") + e.what();
  }
}

std::string byParseQuery(const std::string& text, const ParseOptions& options = {}) {
  try {
    return describedQuery(parseQuery(text, options));
  } catch (const SyntaxError& e) {
    return std::string("error: ") + e.what();
  }
}

// True when the reader read `text`; either way parseQuery agrees with the grammar.
bool checkSame(const std::string& text, const ParseOptions& options = {}) {
  CAPTURE(text);
  const std::string expected = byGrammar(text, options);
  CHECK(byParseQuery(text, options) == expected);
  std::optional<Query> read;
  try {
    read = readQueryDirectly(text, options);
  } catch (const SyntaxError&) {
    CHECK(expected.starts_with("error: "));  // a check before any parser (size, UTF-8, tokens, nesting)
    return false;
  }
  if (read) CHECK(describedQuery(*read) == expected);
  return read.has_value();
}

}  // namespace

TEST_CASE("the BGP reader builds the grammar's Query for every corpus query it reads") {
  int read = 0, files = 0;
  for (const auto* dir : {GSPARQL_PARSER_TEST_DATA, GSPARQL_PARSER_FUZZ_CORPUS}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
      if (!entry.is_regular_file()) continue;
      ++files;
      read += checkSame(test::readFile(entry.path()));
    }
  }
  INFO(read << " of " << files << " files read directly");
  CHECK(files > 50);
  CHECK(read >= 20);  // the WatDiv queries, at least
}

TEST_CASE("the BGP reader reads every form of its subset as the grammar does") {
  const std::vector<std::string> cases = {
      "SELECT * WHERE { ?s ?p ?o }", "select * { ?s ?p ?o . }", "SELECT ?s { }", "SELECT * {}",
      "PREFIX : <http://e/> SELECT ?x WHERE { ?x a :C ; :p ?y , ?z ; ; :q 'v' ; }",
      "PREFIX ex: <http://e/> PREFIX ex: <http://f/> SELECT $x { $x ex:p ex: . ex:a ex:b ?x }",
      "BASE <http://b/dir/> PREFIX r: <rel/> SELECT * { <s> <../p> r:o . ?x <#frag> r:x }",
      "SELECT DISTINCT ?a ?b { ?a <http://e/p> ?b } LIMIT 10", "SELECT REDUCED * { ?a ?b ?c } OFFSET 5 LIMIT 2",
      "SELECT * { ?a ?b ?c } LIMIT 0 OFFSET 3",
      "SELECT * { ?x <http://e/p> 'a', \"b\"@en-US, '''c\nd''', \"\"\"e\"\"\"^^<http://e/t>, 'f'^^<http://e/u> }",
      "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> SELECT * { ?x ?p '1'^^xsd:integer }",
      "SELECT * { ?x ?p 1, -2, +3, 1.5, -.5, 1e3, -1.5E-2, true, false }",
      "SELECT * { _:b ?p _:c . ?x ?q _:b }", "SELECT * { ?x ?p 'caf\\u00E9', 'tab\\t', \"q\\\"\" }",
      "SELECT * { <http://e/\\u0041> ?p ?o }", "PREFIX : <http://e/> SELECT * { :a\\.b :c%41 :d }",
      "SELECT ?x ?x { ?x ?p ?o }", "SELECT ?y { ?x ?p ?o }",
      "# comment\nSELECT *\n# more\n{\n  ?s ?p ?o . # end\n}\n", "\xEF\xBB\xBFSELECT * { ?s ?p ?o }",
      "SELECT * { ?é <http://e/ü> 'ö' }", "SELECT * { 'lit' ?p ?o }", "SELECT * { ?s ?p ?o } LIMIT 18446744073709551615",
      "SELECT * { ?s ?p ?o ; }", "SELECT * { <a\\u0000b> ?p ?o }"};
  int read = 0;
  for (const auto& text : cases) read += checkSame(text);
  CHECK(read == static_cast<int>(cases.size()));
  CHECK(checkSame("SELECT * { <rel> ?p ?o }", {.base = "http://base/x"}));
}

TEST_CASE("the BGP reader leaves the rest, and errors, to the grammar") {
  const std::vector<std::string> cases = {
      "ASK { ?s ?p ?o }", "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }", "DESCRIBE ?s { ?s ?p ?o }",
      "SELECT * { ?s ?p ?o FILTER(?o > 1) }", "SELECT * { ?s ?p ?o OPTIONAL { ?o ?q ?r } }",
      "SELECT * { { ?s ?p ?o } UNION { ?o ?q ?r } }", "SELECT * { ?s <http://e/p>/<http://e/q> ?o }",
      "SELECT * { ?s <http://e/p>* ?o }", "SELECT * { ?s ^<http://e/p> ?o }", "SELECT * { ?s ?p [] }",
      "SELECT * { ?s ?p [ ?q ?r ] }", "SELECT * { ?s ?p ( 1 2 ) }", "SELECT * { ?s ?p () }",
      "SELECT * FROM <http://e/g> { ?s ?p ?o }", "SELECT * { ?s ?p ?o } ORDER BY ?s",
      "SELECT (COUNT(*) AS ?n) { ?s ?p ?o }", "SELECT ?s { ?s ?p ?o } GROUP BY ?s", "SELECT * { ?s ?p ?o } VALUES ?s { 1 }",
      "SELECT * { GRAPH ?g { ?s ?p ?o } }", "SELECT * { ?s ?p ?o . BIND(1 AS ?x) }", "SELECT * { { SELECT * { ?s ?p ?o } } }",
      "SELECT * { ?s ?p ?o . . }", "SELECT * { . }", "SELECT * { ?s ?p }", "SELECT * { ?s }", "SELECT * { ?s ?p ?o",
      "SELECT { ?s ?p ?o }", "SELECT * WHERE", "SELECT * { ?s ?p ?o } LIMIT", "SELECT * { ?s ?p ?o } LIMIT 1 LIMIT 2",
      "SELECT * { ?s ?p ?o } OFFSET 1 OFFSET 2", "SELECT * { ?s ?p ?o } LIMIT 99999999999999999999",
      "SELECT * { ?s ?p ?o } LIMIT -1", "SELECT * { ex:a ?p ?o }", "PREFIX ex: <http://e/> SELECT * { ?s ?p ex:a } x",
      "SELECT * { ?s ?p 'bad \\q' }", "SELECT * { ?s ?p '\\uD800' }",
      "SELECT * { ?s a ?o . ?s ?p 1 2 }", "SELECT * { ?s ?p ?o , }",
      "SELECT * { ?s 'lit' ?o }", "SELECT * { ?s _:b ?o }", "SELECT * { ?s true ?o }", "PREFIX : SELECT * {}",
      "BASE SELECT * {}", "SELECT * { ?s ?p ?o } }", "INSERT DATA { <a> <b> <c> }", "SELECT * { ?s ?p 'x'^^'y' }",
      "SELECT * { ?s ?p 'x'@en^^<t> }", "SELECT DISTINCT REDUCED * { ?s ?p ?o }", "SELECT * * { ?s ?p ?o }",
      "SELECT ?x * { ?s ?p ?o }", "SELECT * { _:a ?p ?o } LIMIT 1 .", "SELECT * { ?s ?p ?o \u00e9 }", ""};
  for (const auto& text : cases) {
    CAPTURE(text);
    CHECK_FALSE(checkSame(text));
  }
}

TEST_CASE("the BGP reader agrees with the grammar on random near-miss queries") {
  // Queries of the reader's kind from random pieces, some of them wrong.
  const std::vector<std::string> prologue = {"", "PREFIX : <http://e/> ", "PREFIX ex: <http://e/> ", "BASE <http://b/> ",
                                             "PREFIX : ", "PREFIX ex: <http://e/> PREFIX : <x> "};
  const std::vector<std::string> heads = {"SELECT * ", "SELECT ?x ", "SELECT ?x ?y ", "SELECT DISTINCT * ",
                                          "SELECT REDUCED ?y ", "SELECT ", "ASK ", "SELECT * WHERE ", "SELECT (?x) "};
  const std::vector<std::string> terms = {"?x", "?y", "$z", ":a", "ex:b", "ex:", ":", "<http://e/c>", "<rel>", "a",
                                          "'s'", "\"t\"@en", "'u'^^:d", "1", "-2.5", "true", "_:b", "[]", "()", "?",
                                          "'bad\\q'", "ex:a\\.b", "<x y>", "FILTER", "1e3", "+4"};
  const std::vector<std::string> separators = {" . ", " ; ", " , ", " ", " ;; ", " .", ". ."};
  const std::vector<std::string> tails = {"", " LIMIT 3", " OFFSET 2", " LIMIT 1 OFFSET 1", " OFFSET 1 LIMIT 1",
                                          " ORDER BY ?x", " LIMIT", " LIMIT 1 LIMIT 1", " }"};
  std::mt19937 random(20261125);
  auto pick = [&](const std::vector<std::string>& from) {
    return from[std::uniform_int_distribution<size_t>(0, from.size() - 1)(random)];
  };
  int read = 0;
  constexpr int kCases = 5000;
  for (int i = 0; i < kCases; ++i) {
    std::string text = pick(prologue) + pick(heads) + "{ ";
    const int parts = std::uniform_int_distribution<int>(0, 9)(random);
    for (int p = 0; p < parts; ++p) text += pick(terms) + ((p % 3 == 2) ? pick(separators) : " ");
    text += "}" + pick(tails);
    read += checkSame(text);
  }
  INFO(read << " of " << kCases << " read directly");
  CHECK(read > kCases / 50);
}
