#pragma once
// Text forms of parser results: SPARQL (the pretty-printer, which parses back
// to the same algebra), the algebra as an S-expression, and query graphs.
#include <string>

#include "parser/algebra.h"
#include "parser/query_graph.h"

namespace gsparql::sparql {

// Both printers indent two spaces per level down to this depth and no
// further: deeper trees (a UNION of 5000 groups) would otherwise print
// quadratic output, all of it spaces.
inline constexpr int kMaxIndentLevels = 40;

std::string toSparql(const Query& q);
std::string toSparql(const Expr& e);
std::string toSparql(const Path& p);
std::string toSparql(const Term& t);

struct AlgebraFormat {
  bool positions = true;  // append @line:column to operators
};
// Indented S-expression, e.g. (project (?x) (bgp (?x <p> ?y))).
std::string algebraToString(const Op& op, AlgebraFormat format = {});
std::string algebraToString(const Query& q, AlgebraFormat format = {});

// Vertices, edges and components, one per line.
std::string queryGraphToString(const QueryGraph& g);

}  // namespace gsparql::sparql
