#pragma once
// IRI reference resolution, shared by the parser (BASE, relative IRIs in the
// query text) and the expression evaluator (IRI() on computed strings); and
// absolute IRIs given outside a text (graph names of options and requests).
#include <optional>
#include <string>
#include <string_view>

namespace gsparql::rdf {

// RFC 3986 section 5.2 reference resolution. An empty base leaves `ref` as is.
std::string resolveIri(std::string_view base, std::string_view ref);

// `iri`, bare or in angle brackets, as an N-Triples IRI "<...>" if it is
// absolute (a scheme, then no character an IRI may not hold); else nullopt.
std::optional<std::string> absoluteIriTerm(std::string_view iri);

}  // namespace gsparql::rdf
