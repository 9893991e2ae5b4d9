// TSV: byte for byte what Apache Jena 4.5 `arq --results=tsv` wrote for the
// same data and query (tests/results/data/*/select.tsv), up to blank node
// labels, which each engine chooses.
#include <doctest/doctest.h>

#include <sstream>

#include "engine/results/writers.h"
#include "golden.h"

using namespace gsparql::results;
using namespace gsparql::results::test;


TEST_CASE("tsv: tricky corpus matches Jena byte for byte") {
  std::string actual = render(Format::Tsv, corpusRows("tricky", true));
  std::string expected = readFile("tricky/select.tsv");
  checkSameLines(renameBlankFields(actual, '\t'), renameBlankFields(expected, '\t'));
}

TEST_CASE("tsv: number corpus matches Jena except where Jena writes invalid Turtle") {
  std::string actual = render(Format::Tsv, corpusRows("numbers", false));
  std::string expected = readFile("numbers/select.tsv");
  // Jena 4.5 writes these ill-typed literals bare, which is not a Turtle
  // term ("+" and "-" are not INTEGER tokens, "e5" is not a DOUBLE token).
  // gsparql keeps the long form; see docs/result-formats.md.
  const std::pair<std::string, std::string> deviations[] = {
      {"<http://ex/r01>\t+\n", "<http://ex/r01>\t\"+\"^^<http://www.w3.org/2001/XMLSchema#integer>\n"},
      {"<http://ex/r02>\t-\n", "<http://ex/r02>\t\"-\"^^<http://www.w3.org/2001/XMLSchema#integer>\n"},
      {"<http://ex/r25>\te5\n", "<http://ex/r25>\t\"e5\"^^<http://www.w3.org/2001/XMLSchema#double>\n"},
  };
  for (const auto& [jena, ours] : deviations) {
    size_t at = expected.find(jena);
    REQUIRE(at != std::string::npos);
    expected.replace(at, jena.size(), ours);
  }
  checkSameLines(renameBlankFields(actual, '\t'), renameBlankFields(expected, '\t'));
}

TEST_CASE("tsv: empty result and ASK match Jena") {
  Solutions none{{"s", "x"}, {}};
  CHECK(render(Format::Tsv, none) == readFile("tricky/empty.tsv"));
  CHECK(renderAsk(Format::Tsv, true) == readFile("tricky/ask-true.tsv"));
  CHECK(renderAsk(Format::Tsv, false) == readFile("tricky/ask-false.tsv"));
}

TEST_CASE("tsv: Turtle number shapes") {
  const std::string xsd = "http://www.w3.org/2001/XMLSchema#";
  CHECK(abbreviatesAsTurtle("42", xsd + "integer"));
  CHECK(abbreviatesAsTurtle("-0", xsd + "integer"));
  CHECK(abbreviatesAsTurtle("+007", xsd + "integer"));
  CHECK_FALSE(abbreviatesAsTurtle("+", xsd + "integer"));
  CHECK_FALSE(abbreviatesAsTurtle("", xsd + "integer"));
  CHECK_FALSE(abbreviatesAsTurtle("1.0", xsd + "integer"));
  CHECK_FALSE(abbreviatesAsTurtle("42", xsd + "int"));
  CHECK_FALSE(abbreviatesAsTurtle("42", "http://ex/integer"));
  CHECK(abbreviatesAsTurtle("3.50", xsd + "decimal"));
  CHECK(abbreviatesAsTurtle("-.5", xsd + "decimal"));
  CHECK_FALSE(abbreviatesAsTurtle("5.", xsd + "decimal"));
  CHECK_FALSE(abbreviatesAsTurtle("5", xsd + "decimal"));
  CHECK_FALSE(abbreviatesAsTurtle(".", xsd + "decimal"));
  CHECK(abbreviatesAsTurtle("1.0e0", xsd + "double"));
  CHECK(abbreviatesAsTurtle("1.e5", xsd + "double"));
  CHECK(abbreviatesAsTurtle(".5E-1", xsd + "double"));
  CHECK(abbreviatesAsTurtle("1e10", xsd + "double"));
  CHECK_FALSE(abbreviatesAsTurtle("e5", xsd + "double"));
  CHECK_FALSE(abbreviatesAsTurtle(".e5", xsd + "double"));
  CHECK_FALSE(abbreviatesAsTurtle("1.5", xsd + "double"));
  CHECK_FALSE(abbreviatesAsTurtle("1e", xsd + "double"));
  CHECK_FALSE(abbreviatesAsTurtle("INF", xsd + "double"));
  CHECK_FALSE(abbreviatesAsTurtle("1.0e0", xsd + "float"));
  CHECK(abbreviatesAsTurtle("true", xsd + "boolean"));
  CHECK_FALSE(abbreviatesAsTurtle("1", xsd + "boolean"));
}

TEST_CASE("tsv: unbound values and escapes written by hand from the spec") {
  std::ostringstream s;
  auto w = makeResultWriter(Format::Tsv, s);
  w->begin({"a", "b"});
  std::optional<std::string_view> r1[] = {std::nullopt, std::string_view("\"x\ty\fz\\n\"@en")};
  w->row(r1);
  std::optional<std::string_view> r2[] = {std::string_view("_:b1"), std::nullopt};
  w->row(r2);
  w->end();
  CHECK(s.str() == "?a\t?b\n\t\"x\\ty\\fz\\n\"@en\n_:b1\t\n");
}
