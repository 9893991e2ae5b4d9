#include "engine/expr/term_order.h"

#include <algorithm>
#include <cmath>

#include "engine/expr/classified_term.h"

namespace gsparql::engine::expr {
namespace {

int threeWay(std::string_view a, std::string_view b) {
  const int c = a.compare(b);  // byte by byte, unsigned: UTF-8 keeps the code points' order
  return c < 0 ? -1 : c > 0;
}

// Language tags ignoring case, as rdf/term.h keys them: "a"@EN and "a"@en are one term.
int compareTags(std::string_view a, std::string_view b) {
  const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  const auto order = std::lexicographical_compare_three_way(
      a.begin(), a.end(), b.begin(), b.end(),
      [&](char x, char y) { return static_cast<unsigned char>(lower(x)) <=> static_cast<unsigned char>(lower(y)); });
  return order < 0 ? -1 : order > 0;
}

int kindRank(std::string_view term) {
  switch (rdf::termKind(term)) {
    case rdf::TermKind::Blank: return 0;
    case rdf::TermKind::Iri: return 1;
    case rdf::TermKind::Literal: return 2;
    case rdf::TermKind::Triple: break;  // SPARQL 1.2: after literals
  }
  return 3;
}

// Triple terms by subject, then predicate, then object.
int compareTripleTerms(std::string_view a, std::string_view b) {
  rdf::TripleTermParts x, y;
  if (!rdf::splitTripleTerm(a, &x) || !rdf::splitTripleTerm(b, &y)) return threeWay(a, b);
  if (int c = compareTerms(x.subject, y.subject)) return c;
  if (int c = compareTerms(x.predicate, y.predicate)) return c;
  return compareTerms(x.object, y.object);
}

bool isNaN(const Number& n) { return n.type >= NumType::Float && std::isnan(n.approx); }

// By value where `<` orders the two; else 0, for the tie-break.
int orderInGroup(const ClassifiedTerm& a, const ClassifiedTerm& b) {
  switch (a.group()) {
    case TermGroup::Numeric: {
      if (auto c = compareNumbers(*a.number(), *b.number())) return *c;
      return int(isNaN(*a.number())) - int(isNaN(*b.number()));
    }
    case TermGroup::DateTime:
    case TermGroup::Date: return orderDateTimes(*a.dateTime(), *b.dateTime());
    case TermGroup::LangString: {  // as Jena: each language together
      if (int c = compareTags(a.parts().language, b.parts().language)) return c;
      return threeWay(a.parts().value, b.parts().value);
    }
    default: return compareInGroup(a, b).value_or(0);
  }
}

// Jena's order of terms of equal value: lexical form (for IRIs and blank
// nodes, the IRI or label), language tag ignoring case, datatype.
int tieBreak(const rdf::TermParts& a, const rdf::TermParts& b) {
  if (int c = threeWay(a.value, b.value)) return c;
  if (int c = compareTags(a.language, b.language)) return c;
  return threeWay(a.datatype, b.datatype);
}

// A simple literal written without escapes: its lexical form between the
// quotes, compared byte by byte as the String group compares values.
std::optional<std::string_view> plainLexicalForm(std::string_view term) {
  if (term.size() < 2 || term.front() != '"' || term.back() != '"') return std::nullopt;
  const std::string_view form = term.substr(1, term.size() - 2);
  if (form.find('\\') != std::string_view::npos) return std::nullopt;
  return form;
}

}  // namespace

int compareTerms(std::optional<std::string_view> a, std::optional<std::string_view> b) {
  if (!a || !b) return int(a.has_value()) - int(b.has_value());
  if (*a == *b) return 0;
  // Most string keys (WatDiv's ids, names) are simple literals: no parts to split.
  if (const auto x = plainLexicalForm(*a)) {
    if (const auto y = plainLexicalForm(*b)) return threeWay(*x, *y);
  }
  // Blank nodes < IRIs < literals < triple terms, told by the first character: in a column
  // of mixed kinds most comparisons end here, before any literal is parsed.
  if (int c = kindRank(*a) - kindRank(*b)) return c < 0 ? -1 : 1;
  if (rdf::termKind(*a) == rdf::TermKind::Triple) return compareTripleTerms(*a, *b);
  const ClassifiedTerm x(*a), y(*b);
  if (x.group() != y.group()) return x.group() < y.group() ? -1 : 1;
  if (int c = orderInGroup(x, y)) return c;
  return tieBreak(x.parts(), y.parts());
}

}  // namespace gsparql::engine::expr
