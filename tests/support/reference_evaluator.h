#pragma once
// A deliberately simple evaluator of the SPARQL algebra (W3C SPARQL 1.1,
// section 18.5), independent of the engine: an oracle for the random
// operator-tree tests. Solutions are maps variable -> term, multisets are
// vectors of them, and every operator is the spec's definition written as
// nested loops (compatible mappings, Diff for LeftJoin, MINUS's rule on
// disjoint domains). No indexes, no ids, no cleverness.
//
// Supported: Bgp (constants, variables and blank nodes; no property paths),
// Join, LeftJoin with its condition, Union, Minus, Filter, Extend, Values,
// Project, Distinct, Reduced (as no-op), Slice, OrderBy. Expressions: terms,
// =, !=, <, >, <=, >=, &&, ||, !, BOUND, sameTerm, IN, NOT IN, + and - on
// xsd:integer, and EXISTS and NOT EXISTS over BGPs, joins, unions and
// filters by literal substitution (section 18.6). Anything else
// throws ReferenceUnsupported.
//
// Terms are strings in N-Triples syntax (`<iri>`, `_:b`, `"lex"`,
// `"lex"@en`, `"lex"^^<dt>`), as parser/algebra.h writes constants.
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "parser/algebra.h"
#include "support/random_bgp.h"

namespace gsparql::test {

using Mapping = std::map<std::string, std::string>;  // variable (without '?') -> term
using Multiset = std::vector<Mapping>;

class ReferenceUnsupported : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The solutions of `op` over `graph` (a set: duplicate triples count once).
Multiset referenceEvaluate(const sparql::Op& op, const std::vector<StringTriple>& graph);

// An expression's value under `mapping`; nullopt is an error (section 17.3).
std::optional<std::string> referenceExpression(const sparql::Expr& e, const Mapping& mapping);

// Effective boolean value (section 17.2.2); nullopt is a type error.
std::optional<bool> referenceEffectiveBooleanValue(const std::string& term);

// The ORDER BY order of two values (section 15.1), unbound first: -1, 0, 1,
// or nullopt where the spec leaves it open (e.g. a number and a string).
std::optional<int> referenceOrder(const std::optional<std::string>& a, const std::optional<std::string>& b);

// The variables the outermost projection of a query's pattern keeps, or the
// in-scope variables where there is none.
std::vector<std::string> referenceResultVariables(const sparql::Op& root);

// "?a=<x> ?b=UNDEF ...": one mapping over `variables`, for bag comparisons.
std::string rowKey(const Mapping& mapping, const std::vector<std::string>& variables);

}  // namespace gsparql::test
