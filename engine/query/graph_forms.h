#pragma once
// The graph-valued query forms: CONSTRUCT instantiates its template with
// each solution (section 16.2), DESCRIBE returns the concise bounded
// description of each resource (every triple with the resource as subject,
// following blank-node objects). Both return a set of triples as ids.
#include <utility>
#include <vector>

#include "engine/bgp/query_limits.h"
#include "engine/physical/table.h"
#include "engine/query/query_outcome.h"
#include "parser/algebra.h"
#include "parser/update.h"

namespace gsparql::engine {

// A triple and its graph: the graph name's id, kUndefined for the default
// graph.
using GraphTriple = std::pair<Triple, ValueId>;

// The instantiation of an update's template (CONSTRUCT's, with graphs):
// quads whose graph is unbound or no IRI are left out. It checks the
// query's `limits` per solution (a template instantiated with millions of
// solutions takes seconds).
std::vector<GraphTriple> constructQuads(const std::vector<sparql::Quad>& pattern, const Table& rows,
                                        const std::vector<std::string>& variables, TermCodec& terms,
                                        const QueryLimits& limits);

std::vector<Triple> constructTriples(const std::vector<sparql::TriplePattern>& pattern, const Table& rows,
                                     const std::vector<std::string>& variables, TermCodec& terms,
                                     const QueryLimits& limits);

std::vector<Triple> describeResources(const std::vector<sparql::Term>& resources, const Table& rows,
                                      const std::vector<std::string>& variables, TermCodec& terms);

}  // namespace gsparql::engine
