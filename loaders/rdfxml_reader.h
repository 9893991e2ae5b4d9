#pragma once
// RDF/XML through Raptor 2 (Debian's libraptor2), streamed: the input is
// handed to Raptor in blocks as it is read (and decompressed), and each
// triple reaches the handler as Raptor finds it, in the rdf/term.h form.
// Raptor never fetches anything: no network, no files, no external XML
// entities, a URI filter that refuses every request. Errors are
// "name:line:column: message"; see docs/loading.md, "RDF/XML".
#include <string>

#include "loaders/rdf_reader.h"

namespace gsparql {

// `baseIri`: what relative IRIs resolve against (the file's URI unless the
// options name another). Strict: throws LoadError at the first error.
// Lenient: an error drops what Raptor drops with it (a triple with a bad
// IRI, an element it cannot read), counted and reported; an XML error that
// is not well-formedness Raptor can recover from ends the document there.
RdfReadReport readRdfXml(InputStream& input, const std::string& name, const std::string& baseIri,
                         const StatementHandler& onStatement, const RdfReadOptions& options);

}  // namespace gsparql
