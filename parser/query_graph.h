#pragma once
// The labelled directed query graph of one basic graph pattern: what the
// optimizer orders and the executors match against the data graph.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "parser/algebra.h"

namespace gsparql::sparql {

struct QueryVertex {
  Term term;  // variable, blank node (a variable that cannot be projected) or constant
};

struct QueryEdge {
  std::uint32_t from = 0, to = 0;  // vertex indices: subject -> object
  Term predicate;                  // constant or variable
  // Vertex of the predicate variable when it also occurs as a subject or
  // object in this BGP (so the executors must bind both roles to one term).
  std::optional<std::uint32_t> predicateVertex;
  Position pos;
};

class QueryGraph {
 public:
  // One vertex per distinct subject/object term, one edge per distinct
  // triple pattern (a BGP is a set: a repeated pattern is kept once).
  static QueryGraph fromBgp(const std::vector<TriplePattern>& triples);

  const std::vector<QueryVertex>& vertices() const { return vertices_; }
  const std::vector<QueryEdge>& edges() const { return edges_; }
  std::optional<std::uint32_t> vertexOf(const Term& t) const;

  // Weakly connected components as lists of vertex indices, in order of
  // their first vertex. More than one: the results are a cartesian product.
  std::vector<std::vector<std::uint32_t>> components() const;

  // Variables used only as predicates (not vertices).
  std::vector<std::string> predicateOnlyVariables() const;

 private:
  std::uint32_t addVertex(const Term& t);
  std::vector<QueryVertex> vertices_;
  std::vector<QueryEdge> edges_;
  std::map<Term, std::uint32_t> vertexIndex_;  // term -> its vertex, so building stays O(n log n)
};

// Every BGP of an algebra tree, in pre-order (EXISTS patterns included).
std::vector<const Op*> basicGraphPatterns(const Op& root);

}  // namespace gsparql::sparql
