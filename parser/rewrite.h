#pragma once
// Pieces for the rewrites of the algebra made after parsing (GeoSPARQL's
// query rewrite, RDFS entailment): a triple pattern replaced by what matches
// it, written as SPARQL and parsed, so that the parser builds the paths,
// filters and query graphs as for any query.
#include <string>

#include "parser/algebra.h"

namespace gsparql::sparql {

// The distinct solutions of `body` (the inside of a group graph pattern)
// over the variables of `pattern`, to join in the pattern's place: a
// pattern's matches are a set of triples, however many ways `body` finds
// each. Where `pattern` has no variable, a FILTER EXISTS of `body`. Throws
// SyntaxError where `body` does not parse.
OpPtr distinctMatches(const TriplePattern& pattern, const std::string& body);

// The join of two patterns; `right` alone where `left` is null.
OpPtr joined(OpPtr left, OpPtr right);

// A term as SPARQL writes it: `?name` for a variable, the term itself for a constant.
std::string termText(const Term& t);

}  // namespace gsparql::sparql
