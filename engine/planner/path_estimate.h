#pragma once
// A property path pattern with a constant end, searched from that end while
// planning: such searches reach few vertices (subOrganizationOf+ of one
// university, subClassOf* of one class) and cost what the scan costs again,
// while a guess from the vertex count can be off by millions and make a join
// build its hash table on the wrong side.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "parser/algebra.h"

namespace gsparql {
class GraphStore;
}

namespace gsparql::engine {

// Rows of the path: exact with a constant end; else the vertex count.
double estimatePathRows(const GraphStore& store, const sparql::Term& subject, const sparql::Path& path,
                        const sparql::Term& object);

// For a path between a constant and a variable: the variable and the terms
// it takes, one per row (a bag, as the path's rows), when there are 1 to
// `limit` of them. They can go into a BGP as constants, like VALUES.
std::optional<std::pair<std::string, std::vector<std::string>>> pathEndTerms(const GraphStore& store,
                                                                             const sparql::Term& subject,
                                                                             const sparql::Path& path,
                                                                             const sparql::Term& object, size_t limit);

}  // namespace gsparql::engine
