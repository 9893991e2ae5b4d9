#pragma once
// A FILTER condition on one variable of a BGP, decided once per term the
// variable can take rather than once per row: the terms are the keys of the
// smallest adjacency of a constant predicate the variable is an end of (the
// objects of gr:price for `?o gr:price ?p FILTER(xsd:integer(?p) > 900)`),
// and the variable is then limited to those that pass, so that either
// executor makes only the rows the condition keeps (WatDiv SF100: 1,000
// prices decided instead of 240,000 rows made and filtered). The condition
// stays applied above: it decides each remaining term once more, from its
// memo. Exact: every row's term is among the keys, and a pure function of
// one term (expr::Expression::keySlot) holds on the row as on the term.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/bgp/bound_bgp.h"
#include "engine/bgp/query_limits.h"
#include "parser/algebra.h"
#include "storage/adjacency.h"

namespace gsparql {
class GraphStore;
}

namespace gsparql::engine {

// The variable `e` reads, where it reads one and nothing impure (RAND, NOW,
// BNODE, EXISTS, ...); nullopt otherwise.
std::optional<std::string> singleVariableOf(const sparql::Expr& e);

// `condition` read through the chain of BINDs from `extend` down: their
// variables replaced by their expressions, so that it reads what lies below
// the chain (`BIND(xsd:integer(?p) AS ?v) FILTER(?v > 900)` narrows ?p).
// Exact: an expression's error leaves its variable unbound, which every use
// but BOUND reads as that error; nullopt where `condition` asks whether one
// is BOUND or has EXISTS (which reads any variable). A text search's score
// is not read through: its variable stays.
std::optional<sparql::Expr> throughBinds(const sparql::Expr& condition, const sparql::Op& extend);

// The terms a vertex of a BGP can take, as vertex ids (ascending): a set of
// constants, or the keys of one adjacency, read (and so checked) only when
// asked for; and what names them in the store for as long as its content
// stays.
struct Domain {
  std::span<const uint32_t> constants;
  const PredicateAdjacency* keysOf = nullptr;  // where they are that adjacency's keys
  std::string key;
  size_t size() const { return keysOf != nullptr ? keysOf->keyCount() : constants.size(); }
  std::span<const uint32_t> ids() const { return keysOf != nullptr ? keysOf->keys() : constants; }
};

// Vertex `vertex`'s of `bgp`: its constants where it is limited to a set
// (named by them), else the keys of the adjacency of the fewest keys among
// its edges of constant predicates (named by the direction and the
// predicate); no ids where it has none (only predicate variables). Names
// start with the snapshot's identity (GraphStore::identity).
Domain domainOf(const BoundBgp& bgp, uint32_t vertex, const GraphStore& store);

// The ids of `domain` on which `condition` (of `variable` alone) holds, in
// FILTER's sense (an error is false), ascending; nullopt where more than
// `most` do, which a sample of the domain decided first foresees (so that
// an unselective condition costs a few hundred decisions, not the domain's).
// Kept for the process by the domain's key and the condition's text (the
// last 64), as plans are: a query sent again decides nothing again.
std::optional<std::vector<uint32_t>> idsPassing(const sparql::Expr& condition, const std::string& variable,
                                                const Domain& domain, size_t most, const GraphStore& store,
                                                StopCheck& stop);

}  // namespace gsparql::engine
