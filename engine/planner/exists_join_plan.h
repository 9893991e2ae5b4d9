#pragma once
// The one decision of how FILTER (NOT) EXISTS runs: as a semi- or anti-join
// (physical/exists_join.h), the pattern evaluated once, or by substitution
// row by row (planner/exists_probe.h, through Filter); and of which MINUS and
// OPTIONAL patterns are lookups in the adjacency instead of hash probes.
//
// Section 18.6 substitutes the row's values for the pattern's variables. A
// join gives the same answer when the pattern is made of BGPs, joins and
// filters only: each of its solutions binds every variable it has, so
// substituting a value for ?v keeps exactly its solutions with ?v equal to
// that value, and a variable the row leaves unbound (OPTIONAL)
// stays free, so the answer is "some solution is compatible with the row"
// on the shared variables. A filter inside must read only variables its own
// group binds, or none of the input's: a value substituted into a filter
// where the pattern leaves the variable unbound changes the filter, not the
// solutions. Anything else (OPTIONAL, UNION, MINUS, BIND, VALUES, GRAPH,
// subqueries or a nested EXISTS inside, and property paths, whose zero-length
// match of a substituted term not in the data has no unsubstituted
// counterpart) keeps substitution.
#include <optional>
#include <string>
#include <vector>

#include "parser/algebra.h"

namespace gsparql::engine {

struct ExistsAsJoin {
  bool negated = false;                // NOT EXISTS: an anti-join
  const sparql::Op* pattern = nullptr;  // the EXISTS pattern, planned once
  std::vector<std::string> keys;       // the variables it shares with the input
  // The pattern is `?k <p> ?x` or `?x <p> ?k`, ?k the one key, ?x another
  // variable: the adjacency answers by ?k's degree (physical/exists_adjacency.h).
  bool byAdjacency = false;
  // MINUS, not NOT EXISTS: a row whose ?k is unbound shares no bound
  // variable with the pattern's solutions, so it stays.
  bool minus = false;
};

// `condition` (one conjunct of a FILTER over `input`) as a join, where
// that equals substitution.
std::optional<ExistsAsJoin> existsAsJoin(const sparql::Expr& condition, const sparql::Op& input);

// MINUS `minus` as an anti-join by adjacency, where its right side is one
// such triple (otherwise the Minus operator's hash probe).
std::optional<ExistsAsJoin> minusByAdjacency(const sparql::Op& minus);

// OPTIONAL { ?k <p> ?x } without a FILTER, ?k the one variable it shares
// with its left side and ?x a variable: each left row's matches are read
// from the adjacency (physical/optional_adjacency.h), otherwise LeftJoin's
// hash probe. The pattern binds both variables in every solution, so the
// two give the same rows.
struct OptionalAsAdjacency {
  const sparql::Op* pattern = nullptr;  // the one triple
  std::string key, added;               // ?k, and ?x
};
std::optional<OptionalAsAdjacency> optionalByAdjacency(const sparql::Op& leftJoin);

}  // namespace gsparql::engine
