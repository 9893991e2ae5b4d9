#pragma once
// A spatial FILTER that an index can narrow (docs/geosparql.md): a geof:
// relation that needs a common point (sfWithin, sfIntersects, sfContains,
// ...) between a variable and a constant geometry. The variable's candidates
// are the store's geometry literals whose envelopes meet the constant's
// (engine/geo/spatial_index.h); the planner limits the BGP variable to them
// and keeps the filter, which decides each row.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/geo/spatial_index.h"
#include "parser/algebra.h"
#include "storage/graph_store.h"

namespace gsparql::engine {


// The spatial index of the store's current snapshot (built on its first use).
std::shared_ptr<const geo::SpatialIndex> storeSpatialIndex(const GraphStore& store);
// The envelopes of the store's geometry literals by vertex id, and whether
// each is a point, through its spatial index, which the first call gets (or
// builds: a scan of the dictionary).
std::function<std::optional<geo::StoredEnvelope>(uint32_t vertex)> storedEnvelopes(const GraphStore& store);

// A FILTER condition the spatial index narrows: a geof: relation that needs
// a common point between a variable and a constant, non-empty geometry, in
// either order, and the literals whose envelopes meet the constant's.
struct IndexedSpatialCondition {
  std::string variable;
  size_t constantArgument = 1;       // which of the relation's two arguments is the constant
  std::vector<uint32_t> candidates;  // vertex ids, ascending
};
// nullopt when `e` is no such condition. (No envelope: no geometry, where
// the filter gives its error on each row as without the index, or an empty
// one, and two empty geometries are sfEquals.)
std::optional<IndexedSpatialCondition> indexedSpatialCondition(const sparql::Expr& e, const GraphStore& store);

}  // namespace gsparql::engine
