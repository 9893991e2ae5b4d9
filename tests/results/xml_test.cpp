// XML: byte for byte what Jena 4.5 `arq --results=xml` wrote, up to blank
// node labels.
#include <doctest/doctest.h>

#include "golden.h"

using namespace gsparql::results;
using namespace gsparql::results::test;


TEST_CASE("xml: tricky corpus matches Jena byte for byte") {
  checkSameLines(renameXmlBnodes(render(Format::Xml, corpusRows("tricky", true))),
             renameXmlBnodes(readFile("tricky/select.xml")));
}

TEST_CASE("xml: number corpus matches Jena byte for byte") {
  checkSameLines(renameXmlBnodes(render(Format::Xml, corpusRows("numbers", false))),
             renameXmlBnodes(readFile("numbers/select.xml")));
}

TEST_CASE("xml: empty result and ASK match Jena") {
  CHECK(render(Format::Xml, Solutions{{"s", "x"}, {}}) == readFile("tricky/empty.xml"));
  CHECK(renderAsk(Format::Xml, true) == readFile("tricky/ask-true.xml"));
  CHECK(renderAsk(Format::Xml, false) == readFile("tricky/ask-false.xml"));
}

TEST_CASE("xml: attribute values escape quotes") {
  // A datatype IRI holding '"' and '&' (rdf/term.h writes '"' as \u0022).
  Solutions s{{"v"}, {{std::string("\"x\"^^<http://ex/a\\u0022b&c>")}}};
  std::string xml = render(Format::Xml, s);
  CHECK(xml.find("<literal datatype=\"http://ex/a&quot;b&amp;c\">x</literal>") != std::string::npos);
}
