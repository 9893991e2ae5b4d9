#pragma once
// Where a FILTER over a join is a spatial join (docs/geosparql.md#spatial-joins):
// a condition that is a geof: relation needing a common point between two
// variables, ?a and ?b, of operands that no chain of shared variables links
// (the parts of a BGP that the parser split, the query rewrite's geometry
// paths). The operands linked to ?a make one side, those linked to ?b the
// other, each under the conditions that read only its own variables; the
// planner joins the sides through the spatial index (physical/spatial_join.h)
// instead of filtering their cross product row by row.
#include <optional>
#include <vector>

#include "parser/algebra.h"

namespace gsparql::engine {

struct SpatialJoinSplit {
  sparql::OpPtr left, right;          // the sides, ?a's and ?b's
  std::vector<sparql::OpPtr> others;  // operands linked to neither: a cross product with the join
  sparql::Expr condition;             // the relation, decided by the join
  std::vector<sparql::Expr> above;    // the conditions left for a Filter over it all
};

// nullopt where `pattern` is no BGP or join (without SERVICE), or no
// condition relates variables of two unlinked groups of its operands (a
// BGP's parts that no variable or blank node links count as operands).
std::optional<SpatialJoinSplit> spatialJoinSplit(const sparql::Op& pattern, const std::vector<sparql::Expr>& conditions);

}  // namespace gsparql::engine
