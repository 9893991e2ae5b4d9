#pragma once
// The logical plan of a query: what to compute, before any choice of how.
// Its tree is the SPARQL algebra (parser/algebra.h, section 18), EXISTS
// scoped to its GRAPH, plus the query form and what the form reads.
// The planner (engine/planner/) turns the tree into physical operators.
#include <string>
#include <vector>

#include "parser/algebra.h"

namespace gsparql::engine {

struct LogicalPlan {
  sparql::Query::Form form = sparql::Query::Form::Select;
  sparql::OpPtr root;                                 // the WHERE clause under its solution modifiers
  std::vector<sparql::TriplePattern> constructTemplate;  // CONSTRUCT
  std::vector<sparql::Term> describeTerms;             // DESCRIBE (empty: DESCRIBE *)
  // The variables the form reads of the root's solutions; empty for ASK.
  std::vector<std::string> formVariables;
  // The dataset the query names (FROM, FROM NAMED); both empty: the store's.
  std::vector<std::string> fromGraphs, fromNamedGraphs;
};

// EXISTS patterns inside GRAPH come out wrapped in the same GRAPH, as they
// match the active graph (section 18.6).
LogicalPlan buildLogicalPlan(const sparql::Query& query);

// The variables a pattern's solutions may bind, blank nodes of its triple
// patterns included as "_:label" (they join like variables inside a group
// but are never projected), in order of first appearance.
std::vector<std::string> patternVariables(const sparql::Op& op);

// A BGP of `triples`, with its query graph, at the position of `from`.
sparql::OpPtr bgpOf(std::vector<sparql::TriplePattern> triples, const sparql::Op& from);

// The variables an expression reads; `inPatterns` also collects those of its
// EXISTS patterns.
void expressionVariables(const sparql::Expr& e, std::vector<std::string>& out);
bool containsExists(const sparql::Expr& e);

}  // namespace gsparql::engine
