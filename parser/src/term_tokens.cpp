#include "parser/src/term_tokens.h"

#include "SparqlLexer.h"
#include "parser/src/lexical.h"
#include "rdf/term.h"

namespace gsparql::sparql {

std::string numericTerm(std::size_t tokenType, std::string_view lexicalForm) {
  using L = gsparql_antlr::SparqlLexer;
  std::string_view type;
  switch (tokenType) {
    case L::INTEGER: case L::INTEGER_POSITIVE: case L::INTEGER_NEGATIVE: type = "integer"; break;
    case L::DECIMAL: case L::DECIMAL_POSITIVE: case L::DECIMAL_NEGATIVE: type = "decimal"; break;
    default: type = "double"; break;
  }
  return rdf::literalTerm(lexicalForm, {}, std::string(rdf::kXsd) + std::string(type));
}

std::string booleanTerm(bool value) {
  return rdf::literalTerm(value ? "true" : "false", {}, std::string(rdf::kXsd) + "boolean");
}

std::string typedLiteralTerm(std::string_view lexicalForm, std::string_view datatype) {
  return rdf::literalTerm(lexicalForm, {}, datatype.substr(1, datatype.size() - 2));
}

std::optional<std::string> prefixedNameTerm(const std::map<std::string, std::string>& prefixes, std::string_view name) {
  const auto colon = name.find(':');
  const auto it = prefixes.find(std::string(name.substr(0, colon)));
  if (it == prefixes.end()) return std::nullopt;
  return rdf::iriTerm(it->second + lexical::decodeLocalName(name.substr(colon + 1)));
}

}  // namespace gsparql::sparql
