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

std::optional<std::pair<std::string, std::vector<std::string>>> spatialCandidates(const sparql::Expr& e,
                                                                                   const GraphStore& store,
                                                                                   size_t maxCandidates) {
  using sparql::Expr;
  if (e.kind != Expr::Kind::Function || e.args.size() != 2 || !geo::impliesIntersection(e.name)) return std::nullopt;
  // The relations that need a common point are symmetric in that need.
  const Expr* variable = &e.args[0];
  const Expr* constant = &e.args[1];
  if (variable->kind == Expr::Kind::Term && variable->term.isConstant()) std::swap(variable, constant);
  if (variable->kind != Expr::Kind::Term || variable->term.kind != sparql::Term::Kind::Variable) return std::nullopt;
  if (constant->kind != Expr::Kind::Term || !constant->term.isConstant()) return std::nullopt;
  // No envelope: no geometry (the filter gives its error on each row, as
  // without the index), or an empty one (two empty geometries are sfEquals).
  const std::optional<geo::Box> box = geo::boxOfTerm(constant->term.value);
  if (!box) return std::nullopt;
  const std::vector<uint32_t> ids = storeSpatialIndex(store)->candidates(*box);
  if (ids.size() > maxCandidates) return std::nullopt;
  return std::make_pair(variable->term.value, store.dictionary().terms(TermSpace::Vertex, ids));
}

}  // namespace gsparql::engine
