#include "engine/bgp/bound_bgp.h"

#include <algorithm>

#include "storage/dictionary.h"
#include "storage/graph_store.h"

namespace gsparql::engine {
namespace {

using sparql::Term;

BoundVertex bindVertex(const Term& term, const Dictionary& dictionary, bool& absent) {
  BoundVertex v;
  if (term.isConstant()) {
    v.id = dictionary.id(TermSpace::Vertex, term.value).value_or(kNoId);
    absent |= v.id == kNoId;
  } else {
    v.name = term.value;
    v.isVariable = true;
    v.isBlank = term.kind == Term::Kind::Blank;
  }
  return v;
}

uint32_t predicateVariableIndex(std::vector<std::string>& names, const std::string& name) {
  auto it = std::find(names.begin(), names.end(), name);
  if (it != names.end()) return static_cast<uint32_t>(it - names.begin());
  names.push_back(name);
  return static_cast<uint32_t>(names.size() - 1);
}

}  // namespace

BoundBgp bindBgp(const sparql::QueryGraph& graph, const GraphStore& store, uint32_t dataGraph) {
  const Dictionary& dictionary = store.dictionary();
  BoundBgp bgp;
  bgp.graph = dataGraph;
  bgp.graphPredicates = store.graphs().predicates(dataGraph);
  for (const auto& v : graph.vertices()) {
    bgp.vertices.push_back(bindVertex(v.term, dictionary, bgp.hasAbsentConstant));
  }
  for (const auto& e : graph.edges()) {
    BoundEdge edge{e.from, e.to, !e.predicate.isConstant(), kNoId, e.predicateVertex};
    if (edge.predicateIsVariable) {
      edge.predicate = predicateVariableIndex(bgp.predicateVariables, e.predicate.value);
    } else {
      edge.predicate = store.graphs().predicate(dataGraph, e.predicate.value).value_or(kNoId);
      bgp.hasAbsentConstant |= edge.predicate == kNoId;
    }
    bgp.edges.push_back(edge);
  }
  bgp.components = graph.components();
  return bgp;
}

std::vector<uint32_t> predicateVertexIds(const GraphStore& store) {
  const auto& dictionary = store.dictionary();
  std::vector<uint32_t> ids(store.catalog().predicates.size(), kNoId);
  for (uint32_t p = 0; p < ids.size(); ++p) {
    ids[p] = dictionary.id(TermSpace::Vertex, store.graphs().predicateTerm(p)).value_or(kNoId);
  }
  return ids;
}

}  // namespace gsparql::engine
