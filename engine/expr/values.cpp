#include "engine/expr/values.h"

#include <cstring>

#include "engine/expr/classified_term.h"
#include "engine/expr/expression.h"
#include "engine/expr/numeric.h"

namespace gsparql::engine::expr {
namespace {

// Different terms where `unknown` has a datatype we cannot compare: their
// values might still be equal (section 17.4.1.7, RDFterm-equal), so `=` is an
// error. Not against a language-tagged literal: no other datatype has
// rdf:langString's (string, tag) values (open-world tests open-eq-08..12).
bool mayEqualByValue(const ClassifiedTerm& unknown, const ClassifiedTerm& other) {
  return unknown.group() == TermGroup::Other && other.parts().kind == rdf::TermKind::Literal &&
         other.group() != TermGroup::LangString;
}

bool sameTerm(std::string_view a, std::string_view b) {
  return a == b || rdf::termKey(a) == rdf::termKey(b);
}

// The groups whose terms `=` compares by value.
bool comparedByValue(TermGroup group) {
  return group != TermGroup::Other && group != TermGroup::LangString && group != TermGroup::Iri &&
         group != TermGroup::Blank;
}

}  // namespace

std::optional<bool> parseBoolean(std::string_view lexical) {
  if (lexical == "true" || lexical == "1") return true;
  if (lexical == "false" || lexical == "0") return false;
  return std::nullopt;
}

namespace {

// SPARQL 1.2: two triple terms are `=` when their parts are, part by part
// (<<( :a :b 123 )>> = <<( :a :b 123.0 )>>); a triple term equals no other kind of term.
std::optional<bool> tripleTermsEqual(std::string_view a, std::string_view b) {
  rdf::TripleTermParts x, y;
  if (!rdf::splitTripleTerm(a, &x) || !rdf::splitTripleTerm(b, &y)) return sameTerm(a, b);
  std::optional<bool> all = true;
  for (auto part : {&rdf::TripleTermParts::subject, &rdf::TripleTermParts::predicate, &rdf::TripleTermParts::object}) {
    const std::optional<bool> equal = valuesEqual(x.*part, y.*part);
    if (equal == false) return false;
    if (!equal) all = std::nullopt;
  }
  return all;
}

}  // namespace

std::optional<bool> valuesEqual(std::string_view a, std::string_view b) {
  const bool tripleA = rdf::termKind(a) == rdf::TermKind::Triple, tripleB = rdf::termKind(b) == rdf::TermKind::Triple;
  if (tripleA || tripleB) return tripleA && tripleB ? tripleTermsEqual(a, b) : std::optional<bool>(false);
  const ClassifiedTerm x(a), y(b);
  if (x.group() == y.group() && comparedByValue(x.group())) {
    auto c = compareInGroup(x, y);
    if (!c && x.group() == TermGroup::Numeric) return false;  // NaN equals nothing
    if (!c) return std::nullopt;
    return *c == 0;
  }
  if (sameTerm(a, b)) return true;
  if (mayEqualByValue(x, y) || mayEqualByValue(y, x)) return std::nullopt;
  return false;
}

std::optional<int> compareValues(std::string_view a, std::string_view b) {
  const ClassifiedTerm x(a), y(b);
  if (x.group() != y.group()) return std::nullopt;
  return compareInGroup(x, y);
}

// A number's keys: its double (what compareNumbers compares when a float or
// double takes part; -0 is 0), and for integers and decimals also the exact
// value in canonical form (equal exact values may round apart).
std::vector<std::string> numberKeys(const Number& number) {
  std::vector<std::string> keys;
  double approx = number.toDouble();
  if (approx != approx) return keys;  // NaN equals nothing
  if (approx == 0) approx = 0.0;
  std::string bits(sizeof approx, '\0');
  std::memcpy(bits.data(), &approx, sizeof approx);
  keys.push_back("d" + bits);
  if (number.type <= NumType::Decimal) keys.push_back("x" + canonicalLexical(Number{NumType::Decimal, number.exact, 0.0}));
  return keys;
}

EqualityKeys equalityKeys(std::string_view term) {
  const ClassifiedTerm c(term);
  EqualityKeys keys;
  keys.termKey = rdf::termKey(term);
  if (c.parts().kind == rdf::TermKind::Triple) {  // equal by its parts' values
    keys.comparedOneByOne = true;
    return keys;
  }
  keys.comparedOneByOne = c.group() == TermGroup::DateTime || c.group() == TermGroup::Date;
  keys.unknownDatatype = c.group() == TermGroup::Other;
  keys.valueLiteral = c.parts().kind == rdf::TermKind::Literal && c.group() != TermGroup::LangString;
  if (c.group() == TermGroup::Numeric) keys.valueKeys = numberKeys(*c.number());
  if (c.group() == TermGroup::Boolean) keys.valueKeys = {*c.boolean() ? "b1" : "b0"};
  if (c.group() == TermGroup::String) keys.valueKeys = {"s" + std::string(c.parts().value)};
  return keys;
}

std::optional<bool> effectiveBooleanValue(std::string_view text) {
  // The booleans the functions make, recognised without splitting them.
  static const std::string kTrue = booleanTerm(true), kFalse = booleanTerm(false);
  if (text == kTrue) return true;
  if (text == kFalse) return false;
  TermValue t = parseTerm(text);
  if (!t.isLiteral() || !t.language.empty()) return std::nullopt;
  if (t.datatype.empty()) return !t.value.empty();
  // An ill-typed boolean is an error (the SPARQL 1.2 test not-not; 1.1 said false).
  if (xsdLocal(t.datatype) == "boolean") return parseBoolean(t.value);
  if (!isNumericDatatype(t.datatype)) return std::nullopt;
  // An ill-typed numeric literal is false (section 17.2.2).
  auto n = parseNumber(t);
  if (!n) return false;
  if (n->type <= NumType::Decimal) return n->exact.mantissa != 0;
  return !(n->approx == 0 || n->approx != n->approx);
}

}  // namespace gsparql::engine::expr
