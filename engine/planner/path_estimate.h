#pragma once
// A property path pattern with a constant end, searched from that end while
// planning: such searches reach few vertices (subOrganizationOf+ of one
// university, subClassOf* of one class) and cost what the scan costs again,
// while a guess from the vertex count can be off by millions and make a join
// build its hash table on the wrong side. The planner searches each path
// once and uses the result both for its estimate and to fold the terms it
// reaches into a BGP.
#include <optional>
#include <string>
#include <vector>

#include "engine/bgp/query_limits.h"
#include "parser/algebra.h"
#include "storage/named_graphs.h"

namespace gsparql {
class GraphStore;
}

namespace gsparql::engine {

struct SearchedPath {
  double rows = 0;  // exact
  // For a path between a constant and a variable, the terms the variable
  // takes, one per row (a bag, as the path's rows), when there are at most
  // the limit given to searchPath; else empty.
  std::vector<std::string> endTerms;
};

// The variable of a path between a constant and a variable; empty otherwise.
std::string variableEnd(const sparql::Term& subject, const sparql::Term& object);

// The search from the constant end, in the merge of `graph`'s graphs of the
// store, within the query's `limits`; nullopt when neither end is constant.
std::optional<SearchedPath> searchPath(const GraphStore& store, const sparql::Term& subject, const sparql::Path& path,
                                       const sparql::Term& object, const GraphMerge& graph, size_t endTermsLimit,
                                       const QueryLimits& limits);

}  // namespace gsparql::engine
