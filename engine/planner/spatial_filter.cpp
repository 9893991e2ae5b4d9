#include "engine/planner/spatial_filter.h"

#include <string>

#include "engine/geo/spatial_index.h"

namespace gsparql::engine {

std::shared_ptr<const geo::SpatialIndex> storeSpatialIndex(const GraphStore& store) {
  // One index per snapshot content (GraphStore::identity).
  const std::string key = std::to_string(store.identity());
  return geo::spatialIndex(key, [&](const geo::SpatialIndex::Visit& visit) {
    store.dictionary().forEach(TermSpace::Vertex, visit);
  });
}

std::function<std::optional<geo::StoredEnvelope>(uint32_t vertex)> storedEnvelopes(const GraphStore& store) {
  return [&store, index = std::shared_ptr<const geo::SpatialIndex>()](uint32_t vertex) mutable {
    if (!index) index = storeSpatialIndex(store);
    return index->envelope(vertex);
  };
}

std::optional<IndexedSpatialCondition> indexedSpatialCondition(const sparql::Expr& e, const GraphStore& store) {
  using sparql::Expr;
  if (e.kind != Expr::Kind::Function || e.args.size() != 2 || !geo::impliesIntersection(e.name)) return std::nullopt;
  // The relations that need a common point are symmetric in that need.
  const size_t constantArgument = e.args[0].kind == Expr::Kind::Term && e.args[0].term.isConstant() ? 0 : 1;
  const Expr& variable = e.args[1 - constantArgument];
  const Expr& constant = e.args[constantArgument];
  if (variable.kind != Expr::Kind::Term || variable.term.kind != sparql::Term::Kind::Variable) return std::nullopt;
  if (constant.kind != Expr::Kind::Term || !constant.term.isConstant()) return std::nullopt;
  const std::optional<geo::Box> box = geo::boxOfTerm(constant.term.value);
  if (!box) return std::nullopt;
  return IndexedSpatialCondition{variable.term.value, constantArgument, storeSpatialIndex(store)->candidates(*box)};
}

}  // namespace gsparql::engine
