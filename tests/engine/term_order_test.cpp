// SPARQL's order of terms (engine/expr/term_order.h) against section 15.1:
// the kinds' order, IRIs and strings by their characters (not by their
// escaped text with its closing '>' or '"', issue 45), literals by value,
// and, where the Recommendation leaves it open, the documented total order.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "engine/expr/term_order.h"
#include "rdf/term.h"

namespace {

using gsparql::engine::expr::compareTerms;
using Term = std::optional<std::string>;

std::string xsd(const std::string& lexical, const std::string& type) {
  return gsparql::rdf::literalTerm(lexical, {}, "http://www.w3.org/2001/XMLSchema#" + type);
}

std::optional<std::string_view> view(const Term& t) { return t ? std::optional<std::string_view>(*t) : std::nullopt; }

// Each term strictly before the next.
void checkAscending(const std::vector<Term>& terms) {
  for (size_t i = 0; i + 1 < terms.size(); ++i) {
    CAPTURE(terms[i].value_or("(unbound)"));
    CAPTURE(terms[i + 1].value_or("(unbound)"));
    CHECK(compareTerms(view(terms[i]), view(terms[i + 1])) < 0);
    CHECK(compareTerms(view(terms[i + 1]), view(terms[i])) > 0);
  }
}

// One of each kind and group, in the documented order (docs/engine.md).
std::vector<Term> everyKind() {
  using gsparql::rdf::iriTerm;
  using gsparql::rdf::literalTerm;
  return {std::nullopt,
          "_:a",
          "_:a1",
          "_:b",
          iriTerm("http://e/a"),
          iriTerm("http://e/a b"),  // written <http://e/a\u0020b>: a space sorts before '!'
          iriTerm("http://e/a!"),
          iriTerm("http://e/a1"),
          iriTerm("http://e/a1/x"),
          iriTerm("http://e/a10"),
          iriTerm("http://e/a2"),
          iriTerm("http://e/\xC3\xA9"),  // é after every ASCII character
          xsd("-INF", "double"),
          xsd("-5", "integer"),
          xsd("0.5", "decimal"),
          xsd("01", "integer"),  // equal values by lexical form: "01" < "1"
          xsd("1", "int"),
          xsd("2", "integer"),
          xsd("10", "integer"),
          xsd("1e1", "double"),
          xsd("INF", "float"),
          xsd("NaN", "double"),
          xsd("false", "boolean"),
          xsd("true", "boolean"),
          xsd("2000-01-01T10:00:00+02:00", "dateTime"),  // 08:00Z
          xsd("2000-01-01T09:00:00", "dateTime"),        // placed as 09:00Z
          xsd("2000-01-01T09:30:00Z", "dateTime"),
          xsd("2000-01-01", "date"),
          xsd("2000-01-02Z", "date"),
          literalTerm(""),
          literalTerm("a"),
          literalTerm("a b"),
          literalTerm("a!"),
          literalTerm("a\"b"),  // written "a\"b": '"' sorts before '#'
          literalTerm("a#"),
          literalTerm("ab"),
          literalTerm("a", "en"),
          literalTerm("b", "en"),
          literalTerm("a", "en-GB"),
          literalTerm("a", "fr"),
          literalTerm("a", {}, "http://e/dt"),
          literalTerm("b", {}, "http://e/dt"),
          xsd("forty", "integer")};  // ill-typed: ordered as an unknown datatype's literal
}

}  // namespace

TEST_CASE("the order of terms: unbound, blank nodes, IRIs, literals, each by its characters or value") {
  checkAscending(everyKind());
}

TEST_CASE("the issue's IRIs: a1, a1/x, a10, a2 as Jena orders them") {
  checkAscending({"<http://e/a1>", "<http://e/a1/x>", "<http://e/a10>", "<http://e/a2>"});
  checkAscending({"<http://e/Retailer0>", "<http://e/Retailer1>", "<http://e/Retailer10>"});
}

TEST_CASE("only the same term compares equal, and a language tag's case does not count") {
  const std::vector<Term> terms = everyKind();
  for (size_t i = 0; i < terms.size(); ++i) {
    for (size_t j = 0; j < terms.size(); ++j) {
      if (i != j) CHECK(compareTerms(view(terms[i]), view(terms[j])) != 0);
    }
  }
  CHECK(compareTerms("\"a\"@EN", "\"a\"@en") == 0);
  CHECK(compareTerms(std::nullopt, std::nullopt) == 0);
}

TEST_CASE("the order is total and transitive: any shuffle sorts to the same sequence") {
  std::vector<Term> terms = everyKind();
  const auto less = [](const Term& a, const Term& b) { return compareTerms(view(a), view(b)) < 0; };
  std::vector<Term> sorted = terms;
  std::sort(sorted.begin(), sorted.end(), less);
  std::mt19937 random(45);
  for (int round = 0; round < 50; ++round) {
    std::shuffle(terms.begin(), terms.end(), random);
    std::vector<Term> again = terms;
    std::sort(again.begin(), again.end(), less);
    CHECK(again == sorted);
  }
  for (const Term& a : terms) {
    for (const Term& b : terms) {
      for (const Term& c : terms) {
        if (less(a, b) && less(b, c)) CHECK(less(a, c));
      }
    }
  }
}

// Simple literals without escapes compare by their bytes directly; the same
// lexical forms tagged with one language go through their split parts: the
// two orders agree, and with the values' order, escapes (a quote, a newline,
// a backslash) included.
TEST_CASE("simple literals compare as their values, whether written plainly or with escapes") {
  const std::vector<std::string> forms = {"", "0", "01", "1", "10", "9", "A", "a", "a b", "ab", "é", "日本",
                                          "z\"q", "a\nb", "\\", "a\\b", "Z"};
  for (const std::string& x : forms) {
    for (const std::string& y : forms) {
      CAPTURE(x);
      CAPTURE(y);
      const int plain = compareTerms(gsparql::rdf::literalTerm(x), gsparql::rdf::literalTerm(y));
      const int tagged = compareTerms(gsparql::rdf::literalTerm(x, "en"), gsparql::rdf::literalTerm(y, "en"));
      CHECK((plain > 0) == (x > y));
      CHECK((plain < 0) == (x < y));
      CHECK((plain < 0) == (tagged < 0));
      CHECK((plain == 0) == (tagged == 0));
    }
  }
}
