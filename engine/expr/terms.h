#pragma once
// A term in the rdf/term.h form split into its decoded parts, and the
// datatype names the function library tests against.
#include <string>
#include <string_view>

#include "rdf/term.h"

namespace gsparql::engine::expr {

struct TermValue {
  rdf::TermKind kind = rdf::TermKind::Literal;
  std::string value;     // IRI, blank node label or lexical form, unescaped
  std::string language;  // literals: the tag as written (with an RDF 1.2 "--dir"), or empty
  std::string datatype;  // literals: empty for simple and language-tagged ones
  std::string direction;  // literals: the base direction ("ltr", "rtl"), or empty

  bool isLiteral() const { return kind == rdf::TermKind::Literal; }
  bool isSimple() const { return isLiteral() && language.empty() && datatype.empty(); }
  // A simple or language-tagged literal: the string functions' arguments.
  bool isStringLiteral() const { return isLiteral() && datatype.empty(); }
};

TermValue parseTerm(std::string_view term);

// "http://www.w3.org/2001/XMLSchema#" + local.
std::string xsd(std::string_view local);
// The local name when `datatype` is in the XSD namespace, else empty.
std::string_view xsdLocal(std::string_view datatype);

std::string booleanTerm(bool value);
std::string integerTerm(long long value);
// A string literal with the language (possibly empty) of a string argument.
std::string stringTerm(std::string_view lexical, std::string_view language = {});

}  // namespace gsparql::engine::expr
