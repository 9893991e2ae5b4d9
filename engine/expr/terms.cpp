#include "engine/expr/terms.h"

#include "rdf/term_parts.h"

namespace gsparql::engine::expr {

TermValue parseTerm(std::string_view term) {
  rdf::TermSplitter splitter;
  const rdf::TermParts& parts = splitter.split(term);
  TermValue value;
  value.kind = parts.kind;
  value.value = parts.value;
  value.language = parts.language;
  if (!parts.direction.empty()) {
    value.language += "--";
    value.language += parts.direction;
    value.direction = parts.direction;
  }
  value.datatype = parts.datatype;
  return value;
}

std::string xsd(std::string_view local) {
  std::string out(rdf::kXsd);
  out += local;
  return out;
}

std::string_view xsdLocal(std::string_view datatype) {
  return datatype.starts_with(rdf::kXsd) ? datatype.substr(rdf::kXsd.size()) : std::string_view{};
}

std::string booleanTerm(bool value) {
  static const std::string kTrue = rdf::literalTerm("true", {}, xsd("boolean"));
  static const std::string kFalse = rdf::literalTerm("false", {}, xsd("boolean"));
  return value ? kTrue : kFalse;
}

// Digits need no escape, nor does the datatype IRI: written, not escaped.
std::string integerTerm(long long value) {
  static const std::string kDatatype = rdf::iriTerm(xsd("integer"));
  std::string out = "\"";
  out += std::to_string(value);
  out += "\"^^";
  out += kDatatype;
  return out;
}

std::string stringTerm(std::string_view lexical, std::string_view language) {
  return rdf::literalTerm(lexical, language);
}

}  // namespace gsparql::engine::expr
