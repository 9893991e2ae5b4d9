// JSON: the same JSON value as Jena 4.5 `arq --results=json` (compared as
// parsed trees: key order and whitespace differ), up to blank node labels.
#include <doctest/doctest.h>

#include "golden.h"
#include "rdf/term.h"

using namespace gsparql::results;
using namespace gsparql::results::test;

namespace {

Json parsed(const std::string& text, bool renameBnodes = true) {
  Json v = parseJson(text);
  if (renameBnodes) renameJsonBnodes(v);
  return v;
}

void checkSameValue(const std::string& actual, const std::string& expected) {
  Json a = parsed(actual), e = parsed(expected);
  if (a.kind == Json::Kind::Object && e.kind == Json::Kind::Object && a.members.size() == 2) {
    // Compare solution by solution first, for readable failures.
    const Json& ab = a.members[1].second.members[0].second;
    const Json& eb = e.members[1].second.members[0].second;
    CHECK(ab.items.size() == eb.items.size());
    for (size_t i = 0; i < std::min(ab.items.size(), eb.items.size()); ++i) {
      INFO("solution " << i << ": " << compactJson(ab.items[i]) << " vs " << compactJson(eb.items[i]));
      CHECK(ab.items[i] == eb.items[i]);
    }
  }
  CHECK(a == e);
}

}  // namespace

TEST_CASE("json: tricky corpus is the same value as Jena's") {
  checkSameValue(render(Format::Json, corpusRows("tricky", true)), readFile("tricky/select.json"));
}

TEST_CASE("json: number corpus is the same value as Jena's") {
  checkSameValue(render(Format::Json, corpusRows("numbers", false)), readFile("numbers/select.json"));
}

TEST_CASE("json: empty result and ASK are the same values as Jena's") {
  CHECK(parsed(render(Format::Json, Solutions{{"s", "x"}, {}})) == parsed(readFile("tricky/empty.json")));
  CHECK(parsed(renderAsk(Format::Json, true)) == parsed(readFile("tricky/ask-true.json")));
  CHECK(parsed(renderAsk(Format::Json, false)) == parsed(readFile("tricky/ask-false.json")));
  CHECK(parsed(renderAsk(Format::Json, true)) == parsed("{\"head\":{},\"boolean\":true}"));
}

TEST_CASE("json: strings are valid JSON for every control character") {
  std::string lexical;
  for (int c = 1; c < 0x20; ++c) lexical += static_cast<char>(c);
  lexical += "\x7F \xE2\x80\xA8 \xE2\x80\xA9 \xE2\x82\xAC";
  Solutions s{{"v"}, {{gsparql::rdf::literalTerm(lexical)}}};
  std::string text = render(Format::Json, s);
  CHECK(text.find("\\u2028") != std::string::npos);
  Json v = parseJson(text);  // throws on raw control characters
  CHECK(compactJson(v).size() > 0);
  Json expected = parseJson("{\"type\":\"literal\",\"value\":\"\"}");
  expected.members[1].second.text = lexical;
  CHECK(v.members[1].second.members[0].second.items[0].members[0].second == expected);
}

TEST_CASE("json: the test's parser rejects broken JSON") {
  CHECK_THROWS(parseJson("{\"a\":1"));
  CHECK_THROWS(parseJson("[\"a\nb\"]"));
  CHECK_THROWS(parseJson("{\"a\":1,\"a\":2}"));
  CHECK(parseJson(" { \"b\" : [ true , null ] , \"a\" : \"\\u00e9\" } ") ==
        parseJson("{\"a\":\"\xC3\xA9\",\"b\":[true,null]}"));
}
