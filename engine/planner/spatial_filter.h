#pragma once
// A spatial FILTER that an index can narrow (docs/geosparql.md): a geof:
// relation that needs a common point (sfWithin, sfIntersects, sfContains,
// ...) between a variable and a constant geometry. The variable's candidates
// are the store's geometry literals whose envelopes meet the constant's
// (engine/geo/spatial_index.h); the planner limits the BGP variable to them
// and keeps the filter, which decides each row.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "parser/algebra.h"
#include "storage/graph_store.h"

namespace gsparql::engine {

// The variable and its candidate terms; nullopt when `e` is not such a
// filter, or when more than `maxCandidates` literals would pass the index
// (beyond, limiting the variable costs more than it saves).
std::optional<std::pair<std::string, std::vector<std::string>>> spatialCandidates(const sparql::Expr& e,
                                                                                   const GraphStore& store,
                                                                                   size_t maxCandidates);

}  // namespace gsparql::engine
