#pragma once
// Reads SPARQL query results as endpoints send them: SPARQL 1.1 Query
// Results JSON (application/sparql-results+json) and SPARQL Query Results
// XML (application/sparql-results+xml). Terms come out in the engine's one
// form (rdf/term.h), lexical forms exactly as sent; blank nodes keep the
// labels of the document, which only name them within it.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gsparql::engine::service {

struct SparqlResults {
  std::vector<std::string> variables;  // head's, then any a result binds beyond them
  // One row a solution, a cell a variable (nullopt: unbound).
  std::vector<std::vector<std::optional<std::string>>> rows;
  std::optional<bool> boolean;  // an ASK answer (no rows)
};

// Each throws RemoteFailure saying what is malformed.
SparqlResults readJsonResults(std::string_view text);
SparqlResults readXmlResults(std::string_view text);
// By the media type (its parameters ignored), or where that names neither
// format (text/plain, none), by the body's first character.
SparqlResults readResults(std::string_view contentType, std::string_view body);

}  // namespace gsparql::engine::service
