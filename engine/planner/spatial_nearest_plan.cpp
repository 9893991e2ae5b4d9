#include "engine/planner/spatial_nearest_plan.h"

#include <algorithm>

#include "engine/bgp/bound_bgp.h"
#include "engine/geo/nearest.h"
#include "engine/optimizer/recent_cache.h"
#include "engine/physical/nearest_candidates.h"
#include "engine/planner/spatial_filter.h"
#include "parser/print.h"

namespace gsparql::engine {
namespace {

// Whether every object of `predicate` is a literal the index holds: a merge
// of all its objects with the index, most of a k-nearest query's planning
// when made every time, so kept by snapshot content, as the index is.
bool allObjectsIndexed(uint32_t predicate, const GraphStore& store, const geo::NearestBounds& bounds) {
  // Never destroyed: a thread may still plan a query while the process exits.
  static RecentCache<bool>& kept = *new RecentCache<bool>(64);
  const std::string key = std::to_string(store.identity()) + " " + std::to_string(predicate);
  if (const auto known = kept.find(key)) return *known;
  const bool all = bounds.holdsAll(store.adjacency(pcsr::Direction::In).predicate(predicate).keys());
  return *kept.insert(key, std::make_shared<const bool>(all));
}

// Whether every value `variable` takes in BGP `pattern` is a literal the
// index holds: it is the object of a constant predicate whose objects all are.
bool onlyIndexedValues(const sparql::Op& pattern, const std::string& variable, const GraphStore& store, uint32_t graph,
                       const geo::NearestBounds& bounds) {
  if (pattern.kind != sparql::Op::Kind::Bgp || pattern.triples.empty()) return false;
  const BoundBgp bgp = bindBgp(*pattern.queryGraph, store, graph);
  const AdjacencyFile& objects = store.adjacency(pcsr::Direction::In);
  for (const BoundEdge& e : bgp.edges) {
    const BoundVertex& object = bgp.vertices[e.to];
    if (!object.isVariable || object.isBlank || object.name != variable || e.predicateIsVariable ||
        e.predicate >= objects.predicateCount()) {
      continue;
    }
    if (allObjectsIndexed(e.predicate, store, bounds)) return true;
  }
  return false;
}

// The most literals an input limited to the nearest may take: an eighth of
// the whole input's estimated rows and of the literals the index holds.
// Beyond, reading the whole input costs little more: a limited input's row
// costs several times as much, its literals' subjects lying apart (the Xa
// query of benchmarks/results/geo-nearest-wider-ab-dev-2core-2026-12-02).
size_t mostLiterals(size_t indexed, double inputRows) {
  return static_cast<size_t>(std::min(static_cast<double>(indexed), inputRows) / 8);
}

}  // namespace

OperatorPtr nearestCandidates(OperatorPtr input, const sparql::OrderKey& first, const sparql::Op* pattern,
                              uint64_t wanted, const GraphStore& store, uint32_t graph, LimitedInput limited) {
  using sparql::Expr;
  if (wanted == 0 || first.descending) return input;
  const Expr& key = first.expr;
  const std::string distance = "<http://www.opengis.net/def/function/geosparql/distance>";
  if (key.kind != Expr::Kind::Function || key.name != distance || key.args.size() != 3) return input;
  const Expr* variable = &key.args[0];
  const Expr* constant = &key.args[1];
  if (variable->kind == Expr::Kind::Term && variable->term.isConstant()) std::swap(variable, constant);
  auto isTerm = [](const Expr* e, bool constantTerm) {
    return e->kind == Expr::Kind::Term &&
           (constantTerm ? e->term.isConstant() : e->term.kind == sparql::Term::Kind::Variable);
  };
  const std::string& name = variable->term.value;
  if (!isTerm(variable, false) || !isTerm(constant, true) || !isTerm(&key.args[2], true) || !input->columnOf(name)) {
    return input;
  }
  auto bounds = geo::NearestBounds::of(storeSpatialIndex(store), constant->term.value, key.args[2].term.value);
  if (!bounds) return input;
  std::optional<NearestCandidates::Nearer> nearer;
  NearestCandidates::Wider wider;
  if (pattern && onlyIndexedValues(*pattern, name, store, graph, *bounds)) {
    // A few times the rows wanted: most literals give a row or two.
    auto [ids, cutoff] = bounds->nearest(std::max<uint64_t>(64, 4 * wanted));
    OperatorPtr rows = limited(name, ids);
    if (rows && rows->variables() == input->variables()) {
      nearer = {std::move(rows), ids.size(), cutoff};
      wider.most = mostLiterals(bounds->literalCount(), input->estimatedRows());
      wider.plan = [limited = std::move(limited), name](const std::vector<uint32_t>& ids) { return limited(name, ids); };
    }
  }
  return std::make_unique<NearestCandidates>(std::move(input), std::move(nearer), std::move(wider), name, key,
                                             sparql::toSparql(key), std::move(*bounds), wanted);
}

}  // namespace gsparql::engine
