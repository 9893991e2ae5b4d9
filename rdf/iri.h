#pragma once
// IRI reference resolution, shared by the parser (BASE, relative IRIs in the
// query text) and the expression evaluator (IRI() on computed strings).
#include <string>
#include <string_view>

namespace gsparql::rdf {

// RFC 3986 section 5.2 reference resolution. An empty base leaves `ref` as is.
std::string resolveIri(std::string_view base, std::string_view ref);

}  // namespace gsparql::rdf
