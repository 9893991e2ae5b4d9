#include <doctest/doctest.h>

#include <string>

#include "engine/text/text_query.h"

using namespace gsparql::engine::text;

namespace {

// The query as a compact string: +must -mustNot plain should; "a b" phrase; p* prefix; (group).
std::string shape(const TextNode& node) {
  switch (node.kind) {
    case TextNode::Kind::Prefix: return node.words[0] + "*";
    case TextNode::Kind::Words: {
      std::string words;
      for (const auto& w : node.words) words += (words.empty() ? "" : " ") + w;
      return node.words.size() == 1 ? words : "\"" + words + "\"";
    }
    case TextNode::Kind::Group: {
      std::string out;
      for (const auto& c : node.clauses) {
        out += out.empty() ? "" : " ";
        out += c.occur == Occur::Must ? "+" : c.occur == Occur::MustNot ? "-" : "";
        out += c.node.kind == TextNode::Kind::Group ? "(" + shape(c.node) + ")" : shape(c.node);
      }
      return out;
    }
  }
  return "?";
}

std::string parsed(const std::string& text) { return shape(parseTextQuery(text)); }

size_t errorOffset(const std::string& text) {
  try {
    parseTextQuery(text);
  } catch (const TextQueryError& e) {
    return e.offset;
  }
  FAIL("no error for: " << text);
  return 0;
}

}  // namespace

TEST_CASE("search texts parse as Lucene's classic query parser reads them, OR the default operator") {
  CHECK(parsed("fox") == "fox");
  CHECK(parsed("Quick FOX") == "quick fox");
  CHECK(parsed("quick AND fox") == "+quick +fox");
  CHECK(parsed("quick && fox || dog") == "+quick +fox dog");
  CHECK(parsed("quick OR fox") == "quick fox");
  CHECK(parsed("+quick fox -dog") == "+quick fox -dog");
  CHECK(parsed("quick NOT dog") == "quick -dog");
  CHECK(parsed("quick AND NOT dog") == "+quick -dog");
  CHECK(parsed("\"Lazy  Dog\" jumps") == "\"lazy dog\" jumps");
  CHECK(parsed("e-mail") == "\"e mail\"");  // one term, two words: a phrase
  CHECK(parsed("Pre* word") == "pre* word");
  CHECK(parsed("two words*") == "two words*");
  CHECK(parsed("a.b*") == "a.b*");  // one word (UAX #29)
  CHECK(parsed("(a OR b) AND c") == "+(a b) +c");
  CHECK(parsed("a (b -c)") == "a (b -c)");
  CHECK(parsed("\"escaped \\\" quote\"") == "\"escaped quote\"");
  CHECK(parsed("a \\* b") == "a b");   // an escaped star is no wildcard (and no word)
  CHECK(parsed("!!! word") == "word");  // a term without a word is left out
  CHECK(parsed("ANDROID ORBIT") == "android orbit");  // operators only as whole words
}

TEST_CASE("search texts that are no query are refused with the offset of the fault") {
  CHECK(errorOffset("") == 0);
  CHECK(errorOffset("   ") == 0);
  CHECK(errorOffset("?! ...") == 0);
  CHECK(errorOffset("a \"unclosed") == 2);
  CHECK(errorOffset("(a b") == 4);
  CHECK(errorOffset("a b)") == 3);
  CHECK(errorOffset("-a") == 0);
  CHECK(errorOffset("NOT a -b") == 0);
  CHECK(errorOffset("a (-b)") == 2);
  CHECK(errorOffset("AND a") == 0);
  CHECK(errorOffset("a AND") == 2);
  CHECK(errorOffset("a +") == 2);
  CHECK(errorOffset("*") == 0);
  CHECK(errorOffset("a*b") == 1);
  CHECK(errorOffset("wi?d") == 2);
  CHECK(errorOffset("fuzzy~2") == 5);
  CHECK(errorOffset("boost^3") == 5);
  CHECK(errorOffset("e-ma*") == 0);  // "e-ma" is two words: no prefix of one
}

TEST_CASE("search texts over the limits are refused, whatever their content") {
  CHECK(errorOffset(std::string(kMaxSearchTextBytes + 1, 'a')) == kMaxSearchTextBytes);
  std::string clauses;
  for (size_t i = 0; i <= kMaxTextClauses; ++i) clauses += "w ";
  CHECK_THROWS_AS(parseTextQuery(clauses), TextQueryError);
  const std::string deep = std::string(kMaxTextNesting + 2, '(') + "a" + std::string(kMaxTextNesting + 2, ')');
  CHECK_THROWS_AS(parseTextQuery(deep), TextQueryError);
  const std::string fine = std::string(kMaxTextNesting, '(') + "a" + std::string(kMaxTextNesting, ')');
  CHECK(parsed(fine) == std::string(kMaxTextNesting, '(') + "a" + std::string(kMaxTextNesting, ')'));
}
