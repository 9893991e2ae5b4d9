#pragma once
// RDF terms in the one textual form used across gsparql: N-Triples syntax,
// canonical escaping (RDF 1.1 N-Triples, section "Canonical N-Triples").
//   IRI       <http://example.org/a>
//   blank     _:label
//   literal   "lexical"  "lexical"@lang  "lexical"@lang--dir  "lexical"^^<datatype>
//   triple    <<( subject predicate object )>>   (RDF 1.2 triple term, one space apart)
// The dictionary stores terms in this form, the parser writes constants in it,
// and the result writers start from it. Lexical forms are kept exactly as
// written (no numeric canonicalisation); only xsd:string is dropped because
// RDF 1.1 makes "a" and "a"^^xsd:string the same term.
#include <string>
#include <string_view>
#include <vector>

namespace gsparql::rdf {

inline constexpr std::string_view kXsd = "http://www.w3.org/2001/XMLSchema#";
inline constexpr std::string_view kXsdString = "http://www.w3.org/2001/XMLSchema#string";
inline constexpr std::string_view kRdfType = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";
inline constexpr std::string_view kRdfLangString =
    "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString";
inline constexpr std::string_view kRdfDirLangString =
    "http://www.w3.org/1999/02/22-rdf-syntax-ns#dirLangString";

enum class TermKind { Iri, Blank, Literal, Triple };

// `iri`, `label`, `lexical`, `language` and `datatype` are the decoded values
// (no escapes). An empty datatype and language make a simple literal.
std::string iriTerm(std::string_view iri);
std::string blankTerm(std::string_view label);
// `language` may end in an RDF 1.2 base direction: "ar--rtl".
std::string literalTerm(std::string_view lexical, std::string_view language = {},
                        std::string_view datatype = {});
// An RDF 1.2 triple term of three terms already in this form.
std::string tripleTerm(std::string_view subject, std::string_view predicate, std::string_view object);

// The subject, predicate and object of a triple term, as views into it;
// false when `term` is not one (or is malformed).
struct TripleTermParts {
  std::string_view subject, predicate, object;
};
bool splitTripleTerm(std::string_view term, TripleTermParts* parts);

// Calls visit("subject", part), then "predicate" and "object", for a triple
// term's parts (the result writers' nested forms); false when not one.
template <typename Visit>
bool forEachTripleTermPart(std::string_view term, Visit visit) {
  TripleTermParts parts;
  if (!splitTripleTerm(term, &parts)) return false;
  visit("subject", parts.subject);
  visit("predicate", parts.predicate);
  visit("object", parts.object);
  return true;
}

// Appending forms, for hot paths that reuse one buffer.
void appendIri(std::string& out, std::string_view iri);
void appendLiteral(std::string& out, std::string_view lexical, std::string_view language,
                   std::string_view datatype);

TermKind termKind(std::string_view term);

// Appends a Unicode code point as UTF-8 (escape decoding in the parser, the
// result writers and the conformance readers).
void appendUtf8(std::string& out, char32_t codePoint);

// The code points of UTF-8 text (the parser's tokenizer, string functions
// that count code points); a byte that starts no valid sequence reads as
// U+FFFD. `offsets`, if given, receives the byte offset where each code
// point starts, and then the text's size.
std::u32string decodeUtf8(std::string_view text, std::vector<size_t>* offsets = nullptr);

// Language tags compare case-insensitively (RDF 1.1: their value space is
// lower case), so "a"@EN and "a"@en are one term. A term's key lower-cases
// its tag (and those of the literals inside a triple term); the dictionary
// maps keys to ids and ids to the spelling first seen.
bool keyDiffersFromTerm(std::string_view term);
std::string termKey(std::string_view term);

}  // namespace gsparql::rdf
