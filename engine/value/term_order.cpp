#include "engine/value/term_order.h"

#include <charconv>
#include <cstdlib>
#include <string>

#include "rdf/term.h"

namespace gsparql::engine {
namespace {

struct LiteralParts {
  std::string_view lexical;  // still escaped; escaping keeps the order of the escaped characters close enough
  std::string_view suffix;   // @lang or ^^<datatype>, empty for simple literals
};

LiteralParts splitLiteral(std::string_view term) {
  size_t close = term.rfind('"');
  return {term.substr(1, close - 1), term.substr(close + 1)};
}

bool isNumericDatatype(std::string_view suffix) {
  if (!suffix.starts_with("^^<http://www.w3.org/2001/XMLSchema#")) return false;
  std::string_view type = suffix.substr(36, suffix.size() - 37);
  for (std::string_view numeric : {"integer", "decimal", "double", "float", "int", "long", "short", "byte",
                                   "nonNegativeInteger", "positiveInteger", "negativeInteger",
                                   "nonPositiveInteger", "unsignedInt", "unsignedLong", "unsignedShort",
                                   "unsignedByte"}) {
    if (type == numeric) return true;
  }
  return false;
}

std::optional<double> numericValue(const LiteralParts& literal) {
  if (!isNumericDatatype(literal.suffix)) return std::nullopt;
  std::string text(literal.lexical);
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0') return std::nullopt;
  return value;
}

int rank(std::optional<std::string_view> t) {
  if (!t) return 0;
  switch (rdf::termKind(*t)) {
    case rdf::TermKind::Blank: return 1;
    case rdf::TermKind::Iri: return 2;
    case rdf::TermKind::Literal: return 3;
  }
  return 3;
}

template <typename T>
int threeWay(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

int compareLiterals(std::string_view a, std::string_view b) {
  LiteralParts x = splitLiteral(a), y = splitLiteral(b);
  auto nx = numericValue(x), ny = numericValue(y);
  if (nx && ny && *nx != *ny) return threeWay(*nx, *ny);
  if (int c = threeWay(x.lexical, y.lexical)) return c;
  return threeWay(x.suffix, y.suffix);
}

}  // namespace

int compareTerms(std::optional<std::string_view> a, std::optional<std::string_view> b) {
  int ra = rank(a), rb = rank(b);
  if (ra != rb || ra == 0) return threeWay(ra, rb);
  if (ra == 3) return compareLiterals(*a, *b);
  return threeWay(*a, *b);
}

}  // namespace gsparql::engine
