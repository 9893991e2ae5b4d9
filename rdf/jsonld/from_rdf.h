#pragma once
// Serialize RDF as JSON-LD (JSON-LD 1.1 API, 8.4): a dataset in expanded
// form, one node object per subject, named graphs as @graph of their
// name's node, well-formed rdf:first/rdf:rest chains of blank nodes as
// @list.
#include <string>
#include <vector>

#include "rdf/jsonld/common.h"

namespace gsparql::jsonld {

struct Quad {
  std::string subject, predicate, object;  // rdf/term.h form
  std::string graph;                       // empty: the default graph
};

// Throws JsonLdError ("invalid JSON literal" for an rdf:JSON literal that is not JSON).
Json fromRdf(const std::vector<Quad>& dataset, const Options& options);

}  // namespace gsparql::jsonld
