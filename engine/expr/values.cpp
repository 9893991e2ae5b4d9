#include "engine/expr/values.h"

#include <cstring>

#include "engine/expr/datetime.h"
#include "engine/expr/expression.h"
#include "engine/expr/numeric.h"

namespace gsparql::engine::expr {
namespace {

// Literal groups in ORDER BY order; terms of one group compare by value.
enum class Group { Blank, Iri, Numeric, Boolean, DateTime, Date, String, LangString, Other };

struct Classified {
  TermValue term;
  Group group = Group::Other;
  std::optional<Number> number;
  std::optional<bool> boolean;
  std::optional<DateTime> dateTime;
};

Classified classify(std::string_view text) {
  Classified c;
  c.term = parseTerm(text);
  const TermValue& t = c.term;
  if (t.kind == rdf::TermKind::Blank) {
    c.group = Group::Blank;
  } else if (t.kind == rdf::TermKind::Iri) {
    c.group = Group::Iri;
  } else if (!t.language.empty()) {
    c.group = Group::LangString;
  } else if (t.datatype.empty()) {
    c.group = Group::String;
  } else if ((c.number = parseNumber(t))) {
    c.group = Group::Numeric;
  } else if (xsdLocal(t.datatype) == "boolean" && (c.boolean = parseBoolean(t.value))) {
    c.group = Group::Boolean;
  } else if ((c.dateTime = parseDateTime(t))) {
    c.group = c.dateTime->hasTime ? Group::DateTime : Group::Date;
  }
  return c;
}

// Same-group comparison by value; nullopt when the group has no value order.
std::optional<int> compareInGroup(const Classified& a, const Classified& b) {
  switch (a.group) {
    case Group::Numeric: return compareNumbers(*a.number, *b.number);
    case Group::Boolean: return int(*a.boolean) - int(*b.boolean);
    case Group::DateTime:
    case Group::Date: return compareDateTimes(*a.dateTime, *b.dateTime);
    case Group::String: return a.term.value.compare(b.term.value) < 0 ? -1 : a.term.value != b.term.value;
    default: return std::nullopt;
  }
}

// Different terms where `unknown` has a datatype we cannot compare: their
// values might still be equal (section 17.4.1.7, RDFterm-equal), so `=` is an
// error. Not against a language-tagged literal: no other datatype has
// rdf:langString's (string, tag) values (open-world tests open-eq-08..12).
bool mayEqualByValue(const Classified& unknown, const Classified& other) {
  return unknown.group == Group::Other && other.term.isLiteral() && other.group != Group::LangString;
}

bool sameTerm(std::string_view a, std::string_view b) {
  return a == b || rdf::termKey(a) == rdf::termKey(b);
}

}  // namespace

std::optional<bool> parseBoolean(std::string_view lexical) {
  if (lexical == "true" || lexical == "1") return true;
  if (lexical == "false" || lexical == "0") return false;
  return std::nullopt;
}

std::optional<bool> valuesEqual(std::string_view a, std::string_view b) {
  Classified x = classify(a), y = classify(b);
  if (x.group == y.group && x.group != Group::Other && x.group != Group::LangString &&
      x.group != Group::Iri && x.group != Group::Blank) {
    auto c = compareInGroup(x, y);
    if (!c && x.group == Group::Numeric) return false;  // NaN equals nothing
    if (!c) return std::nullopt;
    return *c == 0;
  }
  if (sameTerm(a, b)) return true;
  if (mayEqualByValue(x, y) || mayEqualByValue(y, x)) return std::nullopt;
  return false;
}

std::optional<int> compareValues(std::string_view a, std::string_view b) {
  Classified x = classify(a), y = classify(b);
  if (x.group != y.group) return std::nullopt;
  return compareInGroup(x, y);
}

int orderTerms(std::string_view a, std::string_view b) {
  Classified x = classify(a), y = classify(b);
  if (x.group != y.group) return x.group < y.group ? -1 : 1;
  if (auto c = compareInGroup(x, y); c && *c != 0) return *c;
  return a < b ? -1 : a != b;
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
  const Classified c = classify(term);
  EqualityKeys keys;
  keys.termKey = rdf::termKey(term);
  keys.comparedOneByOne = c.group == Group::DateTime || c.group == Group::Date;
  keys.unknownDatatype = c.group == Group::Other;
  keys.valueLiteral = c.term.isLiteral() && c.group != Group::LangString;
  if (c.group == Group::Numeric) keys.valueKeys = numberKeys(*c.number);
  if (c.group == Group::Boolean) keys.valueKeys = {*c.boolean ? "b1" : "b0"};
  if (c.group == Group::String) keys.valueKeys = {"s" + c.term.value};
  return keys;
}

std::optional<bool> effectiveBooleanValue(std::string_view text) {
  TermValue t = parseTerm(text);
  if (!t.isLiteral() || !t.language.empty()) return std::nullopt;
  if (t.datatype.empty()) return !t.value.empty();
  if (xsdLocal(t.datatype) == "boolean") return parseBoolean(t.value).value_or(false);
  if (!isNumericDatatype(t.datatype)) return std::nullopt;
  // An ill-typed numeric literal is false (section 17.2.2).
  auto n = parseNumber(t);
  if (!n) return false;
  if (n->type <= NumType::Decimal) return n->exact.mantissa != 0;
  return !(n->approx == 0 || n->approx != n->approx);
}

}  // namespace gsparql::engine::expr
