#pragma once
// JSON-LD 1.1 (rdf/jsonld/): the document is read whole (JSON is one value),
// expanded and turned into statements by the W3C algorithms. Remote
// contexts are never fetched: a context URL must be mapped to a local file
// (RdfReadOptions::jsonLdContexts, `gsparql load --jsonld-context URL=FILE`).
// JSON syntax errors are "name:line:column: message"; JSON-LD errors
// "name: <error code>: detail". See docs/loading.md, "JSON-LD".
#include <string>

#include "loaders/rdf_reader.h"

namespace gsparql {

// Strict: throws LoadError at the first error, and for a statement the
// algorithm drops (a relative IRI, a malformed language tag). Lenient: such
// statements are skipped and counted; an error of the document still ends
// the read (one JSON value has no statement boundary to resume at).
RdfReadReport readJsonLd(InputStream& input, const std::string& name, const std::string& baseIri,
                         const StatementHandler& onStatement, const RdfReadOptions& options);

}  // namespace gsparql
