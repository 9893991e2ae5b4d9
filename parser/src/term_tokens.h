#pragma once
// Terms in the form the algebra keeps them (rdf/term.h), from the text of
// their tokens: what the tree walker and the BGP reader both read.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace gsparql::sparql {

// A numeric literal token (INTEGER, DECIMAL_NEGATIVE, DOUBLE, ...): its
// lexical form, typed xsd:integer, xsd:decimal or xsd:double.
std::string numericTerm(std::size_t tokenType, std::string_view lexicalForm);

std::string booleanTerm(bool value);

// A literal typed by `datatype`, an IRI in term form (`<...>`, from iri terms).
std::string typedLiteralTerm(std::string_view lexicalForm, std::string_view datatype);

// A PNAME_LN or PNAME_NS token's IRI; nullopt where its prefix is not
// declared. Throws std::invalid_argument where its local part is invalid.
std::optional<std::string> prefixedNameTerm(const std::map<std::string, std::string>& prefixes, std::string_view name);

}  // namespace gsparql::sparql
