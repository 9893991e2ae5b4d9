#include "engine/planner/spatial_nearest_plan.h"

#include "engine/geo/nearest.h"
#include "engine/physical/nearest_candidates.h"
#include "engine/planner/spatial_filter.h"
#include "parser/print.h"

namespace gsparql::engine {

OperatorPtr nearestCandidates(OperatorPtr input, const sparql::Op& order, uint64_t wanted, const GraphStore& store) {
  using sparql::Expr;
  if (wanted == 0 || order.order.empty() || order.order[0].descending) return input;
  const Expr& key = order.order[0].expr;
  const std::string distance = "<http://www.opengis.net/def/function/geosparql/distance>";
  if (key.kind != Expr::Kind::Function || key.name != distance || key.args.size() != 3) return input;
  const Expr* variable = &key.args[0];
  const Expr* constant = &key.args[1];
  if (variable->kind == Expr::Kind::Term && variable->term.isConstant()) std::swap(variable, constant);
  auto isTerm = [](const Expr* e, bool constantTerm) {
    return e->kind == Expr::Kind::Term &&
           (constantTerm ? e->term.isConstant() : e->term.kind == sparql::Term::Kind::Variable);
  };
  if (!isTerm(variable, false) || !isTerm(constant, true) || !isTerm(&key.args[2], true) ||
      !input->columnOf(variable->term.value)) {
    return input;
  }
  auto bounds = geo::NearestBounds::of(storeSpatialIndex(store), constant->term.value, key.args[2].term.value);
  if (!bounds) return input;
  return std::make_unique<NearestCandidates>(std::move(input), variable->term.value, key, sparql::toSparql(key),
                                             std::move(*bounds), wanted);
}

}  // namespace gsparql::engine
