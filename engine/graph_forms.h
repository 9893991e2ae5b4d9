#pragma once
// The graph-valued query forms: CONSTRUCT instantiates its template with
// each solution (section 16.2), DESCRIBE returns the concise bounded
// description of each resource (every triple with the resource as subject,
// following blank-node objects). Both return a set of triples as ids.
#include <vector>

#include "engine/physical/table.h"
#include "engine/query_outcome.h"
#include "parser/algebra.h"

namespace gsparql::engine {

std::vector<Triple> constructTriples(const std::vector<sparql::TriplePattern>& pattern, const Table& rows,
                                     const std::vector<std::string>& variables, TermCodec& terms);

std::vector<Triple> describeResources(const std::vector<sparql::Term>& resources, const Table& rows,
                                      const std::vector<std::string>& variables, TermCodec& terms);

}  // namespace gsparql::engine
