#pragma once
// Deserialize JSON-LD to RDF (JSON-LD 1.1 API, 7.2 Node Map Generation and
// 8.1): the statements of an expanded document, terms in rdf/term.h form.
#include <functional>
#include <string>

#include "rdf/jsonld/common.h"

namespace gsparql::jsonld {

struct Statement {
  std::string subject, predicate, object;
  std::string graph;  // empty: the default graph
};

struct RdfSink {
  std::function<void(const Statement&)> statement;
  // What the algorithm leaves out (a relative IRI, a malformed language
  // tag), with why; the statement is not emitted.
  std::function<void(const std::string& why)> dropped;
  std::string blankNodePrefix;  // before every blank node label
};

void toRdf(const Json& expanded, const Options& options, const RdfSink& sink);

}  // namespace gsparql::jsonld
