#pragma once
// The Expansion algorithm (JSON-LD 1.1 API, 5.1 and 5.3): a JSON-LD
// document in expanded form, every term, compact IRI and relative IRI made
// absolute and every value an array of node, value, list or graph objects.
#include <string>

#include "rdf/jsonld/common.h"

namespace gsparql::jsonld {

// Throws JsonLdError. `options.base` is the document's IRI.
Json expand(const Json& document, const Options& options);

}  // namespace gsparql::jsonld
