#pragma once
// SPARQL's order of terms (section 15.1): the one order of ORDER BY, MIN and
// MAX. Unbound < blank nodes < IRIs < literals; IRIs by their strings, code
// point by code point, and literals by value where SPARQL's `<` orders them
// (numbers, booleans, dateTimes, dates, strings). Where SPARQL leaves the
// order open it is still total and stable: literals in groups (numbers <
// booleans < dateTimes < dates < strings < language-tagged < other
// datatypes), NaN after every other number, a dateTime without a timezone
// placed as if it were UTC, language-tagged strings by tag (ignoring case)
// and then lexical form, and terms of equal value (1 and 01, 1 and 1.0) by
// lexical form, language tag and datatype (docs/engine.md, "The order of terms").
#include <optional>
#include <string_view>

namespace gsparql::engine::expr {

// Negative, zero or positive, like strcmp. Terms are in rdf/term.h form;
// nullopt is unbound. Zero only for the same term.
int compareTerms(std::optional<std::string_view> a, std::optional<std::string_view> b);

}  // namespace gsparql::engine::expr
