#pragma once
// A BGP's query graph with its constants replaced by dictionary ids: what the
// optimizer orders and the executors run. Predicate variables get their own
// slots after the vertices, so a row of an id table has one column per query
// vertex and per predicate variable.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "parser/query_graph.h"

namespace gsparql {

class Dictionary;
class GraphStore;

namespace engine {

inline constexpr uint32_t kNoId = 0xFFFFFFFFu;

struct BoundVertex {
  std::string name;         // variable or blank-node label; empty for constants
  bool isVariable = false;  // blank nodes count as variables
  bool isBlank = false;
  uint32_t id = kNoId;      // constants: vertex id (kNoId if absent from the data)
  // A variable the planner limits to these vertex ids (sorted, distinct, at
  // least two: the ends of a path from a constant, or VALUES): its step takes
  // them as candidates, so the BGP starts from them or checks them.
  std::vector<uint32_t> constants;

  bool isConstantSet() const { return !constants.empty(); }
};

struct BoundEdge {
  uint32_t from = 0, to = 0;     // query vertices, subject -> object
  bool predicateIsVariable = false;
  uint32_t predicate = kNoId;    // constant: predicate id; variable: its column
  // The vertex a predicate variable also names, if any (?p in `?x ?p ?y . ?p :q ?z`).
  std::optional<uint32_t> predicateVertex;
};

struct BoundBgp {
  std::vector<BoundVertex> vertices;
  std::vector<BoundEdge> edges;
  std::vector<std::string> predicateVariables;  // column vertices.size() + i
  std::vector<std::vector<uint32_t>> components;
  // A constant is not in the data: the BGP has no solutions.
  bool hasAbsentConstant = false;
  // The graph it matches (storage/named_graphs.h), and the predicate ids of
  // that graph: those a predicate variable ranges over.
  uint32_t graph = 0;
  std::span<const uint32_t> graphPredicates;

  uint32_t columnCount() const { return static_cast<uint32_t>(vertices.size() + predicateVariables.size()); }
  uint32_t predicateColumn(const BoundEdge& e) const {
    return static_cast<uint32_t>(vertices.size()) + e.predicate;
  }
};

// `dataGraph`: the graph of the store it matches (NamedGraphs::kNoGraph: an empty one).
BoundBgp bindBgp(const sparql::QueryGraph& graph, const GraphStore& store, uint32_t dataGraph);

// Maps predicate ids to the vertex ids of the same IRIs (kNoId where the
// IRI is no subject or object), for predicate variables that also name vertices.
std::vector<uint32_t> predicateVertexIds(const GraphStore& store);

}  // namespace engine
}  // namespace gsparql
