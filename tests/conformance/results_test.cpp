// The conformance runner's own pieces on hand-made fixtures (tests/conformance/data):
// the result-file parsers, the comparison with blank-node renaming, graphs
// and their isomorphism, and the RDF/XML conversion.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "manifest.h"
#include "results.h"

using namespace gsparql::conformance;

namespace {

std::string fixture(const std::string& name) { return std::string(GSPARQL_CONFORMANCE_DATA) + "/" + name; }
const std::string kInteger = "http://www.w3.org/2001/XMLSchema#integer";

ResultSet solutions(std::vector<Solution> rows) {
  ResultSet r;
  r.solutions = std::move(rows);
  return r;
}

ResultSet graph(std::set<Triple> triples) {
  ResultSet r;
  r.isGraph = true;
  r.triples = std::move(triples);
  return r;
}

// A fresh directory for converted files, removed at the end of the test.
struct ScratchDir {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("gsparql-conformance-test-" + std::to_string(::getpid()));
  ScratchDir() { std::filesystem::create_directories(path); }
  ~ScratchDir() { std::filesystem::remove_all(path); }
};

// false, with a message, where rapper (raptor2-utils) is not installed.
bool rapperInstalled(const ScratchDir& scratch) {
  try {
    convertRdfXml(fixture("relative.rdf"), scratch.path / "probe.nt");
    return true;
  } catch (const UnsupportedFormat& e) {
    MESSAGE("skipped: " << std::string(e.what()));
    return false;
  }
}

}  // namespace

TEST_CASE("canonical terms: escapes, xsd:string and language tags") {
  CHECK(canonicalTerm("<http://a/b>") == "<http://a/b>");
  CHECK(canonicalTerm("_:x") == "_:x");
  CHECK(canonicalTerm(R"("a\tb\u00E9\"")") == "\"a\tb\xC3\xA9\\\"\"");
  CHECK(canonicalTerm(R"("x"^^<http://www.w3.org/2001/XMLSchema#string>)") == "\"x\"");
  CHECK(canonicalTerm(R"("x"@EN-gb)") == "\"x\"@en-gb");
  CHECK(canonicalTerm(R"("1"^^<http://www.w3.org/2001/XMLSchema#integer>)") ==
        "\"1\"^^<http://www.w3.org/2001/XMLSchema#integer>");
  CHECK(canonicalLiteral("a\nb\\", "", "") == R"("a\nb\\")");
  CHECK_THROWS(canonicalTerm("\"open"));
  CHECK_THROWS(canonicalTerm("plain"));
}

TEST_CASE("SRX: variables, bindings, unbound cells, entities") {
  ResultSet r = readResultFile(fixture("people.srx"));
  CHECK_FALSE(r.isBoolean);
  CHECK(r.variables == std::vector<std::string>{"who", "name", "age"});
  REQUIRE(r.solutions.size() == 3);
  CHECK(r.solutions[0].at("who") == "_:b0");
  CHECK(r.solutions[0].at("name") == "\"Alice & Co\"@en");
  CHECK(r.solutions[0].at("age") == "\"30\"^^<" + kInteger + ">");
  CHECK(r.solutions[1].count("age") == 0);
  CHECK(r.solutions[1].at("name") == R"("Bob \"B\"")");
  CHECK(r.solutions[2].at("name") == R"("line1\nline2")");
}

TEST_CASE("ASK results") {
  ResultSet srx = readResultFile(fixture("ask-true.srx"));
  CHECK(srx.isBoolean);
  CHECK(srx.boolean);
  ResultSet srj = parseSrj(R"({"head": {}, "boolean": false})");
  CHECK(srj.isBoolean);
  CHECK_FALSE(srj.boolean);
  CHECK(compareResults(srx, srx) == std::nullopt);
  CHECK(compareResults(srx, srj).has_value());
  CHECK(compareResults(srx, solutions({})).has_value());
}

TEST_CASE("the same results in SRX, SRJ, TSV and rs: Turtle compare equal, blank labels aside") {
  ResultSet srx = readResultFile(fixture("people.srx"));
  for (const char* other : {"people-renamed.srj", "people.tsv", "people.ttl", "people.rdf"}) {
    CAPTURE(other);
    ResultSet r = readResultFile(fixture(other));
    CHECK(compareResults(srx, r) == std::nullopt);
    CHECK(compareResults(r, srx) == std::nullopt);
  }
}

TEST_CASE("TSV: bare numbers and booleans are typed literals, doubles compare by value") {
  // This case did not run until its name lost a ';' (CTest splits names
  // there); it still expected the lexical forms of before doubles were
  // compared by value (f1b27f8).
  const std::string xsdDouble = "http://www.w3.org/2001/XMLSchema#double";
  ResultSet tsv = parseTsv("?n\n1\n-2.5\n1.0e6\ntrue\n");
  REQUIRE(tsv.solutions.size() == 4);
  CHECK(tsv.solutions[0].at("n") == "\"1\"^^<" + kInteger + ">");
  CHECK(tsv.solutions[1].at("n") == "\"-2.5\"^^<http://www.w3.org/2001/XMLSchema#decimal>");
  CHECK(tsv.solutions[2].at("n") == canonicalLiteral("1.0E6", "", xsdDouble));
  CHECK(tsv.solutions[2].at("n") == canonicalLiteral("1000000.0", "", xsdDouble));
  CHECK(tsv.solutions[3].at("n") == "\"true\"^^<http://www.w3.org/2001/XMLSchema#boolean>");
  ResultSet upper = solutions({{{"n", canonicalLiteral("1.0E6", "", xsdDouble)}}});
  CHECK(compareResults(parseTsv("?n\n1.0e6\n"), upper) == std::nullopt);
  // Plain strings keep their case.
  CHECK(compareResults(parseTsv("?n\n\"1.0e6\"\n"), solutions({{{"n", "\"1.0E6\""}}})).has_value());
}

TEST_CASE("a literal's datatype makes a difference") {
  ResultSet srx = readResultFile(fixture("people.srx"));
  ResultSet decimal = readResultFile(fixture("people-decimal.srj"));
  auto diff = compareResults(srx, decimal);
  REQUIRE(diff.has_value());
  CHECK(diff->find("blank-node") != std::string::npos);
  CHECK(compareResults(solutions({{{"x", "\"1\""}}}), solutions({{{"x", "\"1\"@en"}}})).has_value());
  CHECK(compareResults(solutions({{{"x", "\"1\""}}}), solutions({{{"x", "\"1\"^^<" + kInteger + ">"}}})).has_value());
}

TEST_CASE("blank nodes: a bijection, consistent across solutions") {
  // One node in both places vs two nodes: not isomorphic, in either direction.
  auto same = solutions({{{"x", "_:a"}, {"y", "_:a"}}});
  auto twoNodes = solutions({{{"x", "_:p"}, {"y", "_:q"}}});
  CHECK(compareResults(same, twoNodes).has_value());
  CHECK(compareResults(twoNodes, same).has_value());
  // Consistency across rows: a->p in row 1 forces a->p in row 2.
  auto e = solutions({{{"x", "_:a"}, {"y", "<u>"}}, {{"x", "_:a"}, {"y", "<v>"}}});
  auto ok = solutions({{{"x", "_:p"}, {"y", "<v>"}}, {{"x", "_:p"}, {"y", "<u>"}}});
  auto bad = solutions({{{"x", "_:p"}, {"y", "<v>"}}, {{"x", "_:q"}, {"y", "<u>"}}});
  CHECK(compareResults(e, ok) == std::nullopt);
  CHECK(compareResults(e, bad).has_value());
  // A blank node never equals an IRI or a literal.
  CHECK(compareResults(solutions({{{"x", "_:a"}}}), solutions({{{"x", "<a>"}}})).has_value());
}

TEST_CASE("bags: multiplicity counts, order only with ORDER BY keys") {
  auto ab = solutions({{{"v", "\"a\""}}, {{"v", "\"b\""}}});
  auto ba = solutions({{{"v", "\"b\""}}, {{"v", "\"a\""}}});
  auto aab = solutions({{{"v", "\"a\""}}, {{"v", "\"a\""}}, {{"v", "\"b\""}}});
  CHECK(compareResults(ab, ba) == std::nullopt);
  CHECK(compareResults(ab, aab).has_value());
  CompareOptions ordered;
  ordered.orderKeys = {"v"};
  CHECK(compareResults(ab, ab, ordered) == std::nullopt);
  CHECK(compareResults(ab, ba, ordered).has_value());
  // rs:index gives the expected order of an RDF result set.
  ResultSet indexed = readResultFile(fixture("ordered.ttl"));
  auto abc = solutions({{{"v", "\"a\""}}, {{"v", "\"b\""}}, {{"v", "\"c\""}}});
  CHECK(compareResults(indexed, abc, ordered) == std::nullopt);
  // Lax cardinality (REDUCED): fewer duplicates are fine, more or missing ones not.
  CompareOptions lax;
  lax.laxCardinality = true;
  CHECK(compareResults(aab, ab, lax) == std::nullopt);
  CHECK(compareResults(ab, aab, lax).has_value());
  CHECK(compareResults(aab, solutions({{{"v", "\"a\""}}}), lax).has_value());
}

TEST_CASE("malformed result files are reported") {
  CHECK_THROWS(parseSrx("<sparql><results><result>"));
  CHECK_THROWS(parseSrj("{\"head\": {\"vars\": [\"x\"]}"));
  CHECK_THROWS(parseTsv("?x\t?y\n<a>\n"));
  CHECK_THROWS_AS(readResultFile("result.csv"), UnsupportedFormat);
}

TEST_CASE("expected graphs: Turtle or N-Triples without rs:ResultSet, compared up to blank-node renaming") {
  ResultSet ttl = readResultFile(fixture("graph.ttl"));
  ResultSet nt = readResultFile(fixture("graph.nt"));
  CHECK(ttl.isGraph);
  CHECK(ttl.triples.size() == 5);
  CHECK(ttl.triples.count({"<http://example.org/carol>", "<http://example.org/p>", "_:c"}) == 1);
  CHECK(compareResults(ttl, nt) == std::nullopt);
  CHECK(compareResults(nt, ttl) == std::nullopt);
  // A graph is a set: the same triple twice is one triple.
  CHECK(readRdfResult(fixture("graph.nt")).triples.size() == 5);
}

TEST_CASE("graphs: isomorphism, not only the same triples up to labels one by one") {
  const std::string p = "<http://example.org/p>";
  // A cycle of two blank nodes against two self-loops: same shape per triple, not isomorphic.
  auto cycle = graph({{"_:a", p, "_:b"}, {"_:b", p, "_:a"}});
  auto cycleRenamed = graph({{"_:y", p, "_:x"}, {"_:x", p, "_:y"}});
  auto loops = graph({{"_:x", p, "_:x"}, {"_:y", p, "_:y"}});
  CHECK(compareResults(cycle, cycleRenamed) == std::nullopt);
  auto diff = compareResults(cycle, loops);
  REQUIRE(diff.has_value());
  CHECK(diff->find("no consistent blank-node renaming") != std::string::npos);
  CHECK(diff->find("_:x " + p + " _:x .") != std::string::npos);
  // Ground triples: the difference names them.
  auto one = graph({{"<a>", p, "\"1\""}});
  auto other = graph({{"<a>", p, "\"1\"@en"}});
  diff = compareResults(one, other);
  REQUIRE(diff.has_value());
  CHECK(diff->find("expected 1 triples, got 1; missing: <a> " + p + " \"1\" .") != std::string::npos);
  // A blank node never matches an IRI.
  CHECK(compareResults(graph({{"_:a", p, "<b>"}}), graph({{"<a>", p, "<b>"}})).has_value());
  CHECK(compareResults(graph({}), graph({})) == std::nullopt);
}

TEST_CASE("a graph is neither solutions nor a boolean") {
  auto g = graph({{"<a>", "<p>", "<b>"}});
  CHECK(compareResults(g, solutions({})) == "expected a graph, got solutions");
  CHECK(compareResults(solutions({}), g) == "expected solutions, got a graph");
  CHECK(compareResults(readResultFile(fixture("ask-true.srx")), g) == "expected a boolean, got a graph");
}

TEST_CASE("RDF/XML: converted by rapper with the file's URI as base, a graph unless it is an rs:ResultSet") {
  ScratchDir scratch;
  if (!rapperInstalled(scratch)) return;
  ResultSet converted = readRdfResult(scratch.path / "probe.nt");
  std::string base = fileUri(fixture("relative.rdf"));
  std::string dir = base.substr(0, base.rfind('/') + 1);
  CHECK(converted.triples == std::set<Triple>{{"<" + dir + "thing>", "<http://example.org/p>", "<" + base + "#other>"}});

  ResultSet rdf = readResultFile(fixture("graph.rdf"), scratch.path);
  CHECK(rdf.isGraph);
  CHECK(compareResults(readResultFile(fixture("graph.ttl")), rdf) == std::nullopt);
  CHECK(compareResults(readResultFile(fixture("people.srx")), readResultFile(fixture("people.rdf"), scratch.path)) ==
        std::nullopt);
  std::filesystem::path bad = scratch.path / "bad.rdf";
  std::ofstream(bad) << "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><oops";
  CHECK_THROWS_WITH_AS(convertRdfXml(bad, scratch.path / "bad.nt"), doctest::Contains("rapper rejected bad.rdf"),
                       std::runtime_error);
}
