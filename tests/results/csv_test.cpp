// CSV: byte for byte what Jena 4.5 `arq --results=csv` wrote (it follows the
// W3C CSV results spec and RFC 4180: CRLF, quoting only when needed), up to
// blank node labels.
#include <doctest/doctest.h>

#include <sstream>

#include "golden.h"

using namespace gsparql::results;
using namespace gsparql::results::test;

TEST_CASE("csv: tricky corpus matches Jena byte for byte") {
  std::string actual = renameBlankFields(render(Format::Csv, corpusRows("tricky", true)), ',');
  std::string expected = renameBlankFields(readFile("tricky/select.csv"), ',');
  auto a = splitLines(actual, "\r\n");
  auto e = splitLines(expected, "\r\n");
  CHECK(a.size() == e.size());
  for (size_t i = 0; i < std::min(a.size(), e.size()); ++i) {
    INFO("line " << i + 1);
    CHECK(a[i] == e[i]);
  }
  CHECK(actual == expected);
}

TEST_CASE("csv: number corpus matches Jena byte for byte") {
  CHECK(renameBlankFields(render(Format::Csv, corpusRows("numbers", false)), ',') ==
        renameBlankFields(readFile("numbers/select.csv"), ','));
}

TEST_CASE("csv: empty result and ASK match Jena") {
  CHECK(render(Format::Csv, Solutions{{"s", "x"}, {}}) == readFile("tricky/empty.csv"));
  CHECK(renderAsk(Format::Csv, true) == readFile("tricky/ask-true.csv"));
  CHECK(renderAsk(Format::Csv, false) == readFile("tricky/ask-false.csv"));
}

TEST_CASE("csv: RFC 4180 quoting, written by hand from the spec") {
  Solutions s{{"a", "b"},
              {{std::string("\"a,b\""), std::nullopt},
               {std::string("\"say \\\"hi\\\"\"@en"), std::string("\"\"")},
               {std::string("<http://ex/x,y>"), std::string("\"line\\nbreak\"")}}};
  CHECK(render(Format::Csv, s) ==
        "a,b\r\n"
        "\"a,b\",\r\n"
        "\"say \"\"hi\"\"\",\"\"\r\n"
        "\"http://ex/x,y\",\"line\nbreak\"\r\n");
}
