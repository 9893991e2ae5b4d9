#pragma once
// Splitting a term in the rdf/term.h form (canonical N-Triples) into its
// parts, for the result writers and the string functions. Fast path: nothing is copied unless the term
// holds escapes; the views then point into the splitter's own buffers, so
// they stay valid until the next split() on the same splitter.
#include <string>
#include <string_view>

#include "rdf/term.h"

namespace gsparql::rdf {

struct TermParts {
  TermKind kind = TermKind::Literal;
  // IRI (unescaped), blank node label (without "_:"), lexical form
  // (unescaped) or, for a triple term, the whole term.
  std::string_view value;
  // Literals: the language tag as written (without '@' and without an RDF 1.2
  // base direction), or empty; the direction ("ltr", "rtl") or empty.
  std::string_view language;
  std::string_view direction;
  // Literals: the datatype IRI (unescaped); empty for simple and language-tagged
  // literals (an xsd:string is a simple literal in rdf/term.h form).
  std::string_view datatype;
  // The same parts as stored, still escaped: the text between the quotes of a
  // literal, the text between '<' and '>' of an IRI or of a datatype.
  std::string_view rawValue;
  std::string_view rawDatatype;
  // True when `value` differs from `rawValue` (the term held escapes).
  bool valueUnescaped = false;
};

class TermSplitter {
 public:
  // Never fails: text that is not a well-formed term comes back as a simple
  // literal whose lexical form is the whole text.
  const TermParts& split(std::string_view term);

 private:
  TermParts parts_;
  std::string value_;
  std::string datatype_;
};

// Decodes N-Triples/Turtle escapes (\t \b \n \r \f \" \' \\ \uXXXX \UXXXXXXXX)
// and appends the result to `out` as UTF-8. Unknown escapes are kept as written.
void appendUnescaped(std::string& out, std::string_view escaped);

}  // namespace gsparql::rdf
