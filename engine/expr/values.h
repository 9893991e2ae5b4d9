#pragma once
// Comparing terms by value: `=` and `!=` (RDFterm-equal extended to the
// operand types of section 17.3), `<` and friends. ORDER BY's total order of
// terms, which MIN and MAX use too, is term_order.h.
#include <optional>
#include <string_view>

#include "engine/expr/terms.h"

namespace gsparql::engine::expr {

// nullopt: a type error (literals of unknown or ill-typed datatypes that are
// not the same term, dateTimes whose order depends on a missing timezone).
std::optional<bool> valuesEqual(std::string_view a, std::string_view b);
// <0, 0, >0 for numbers, strings, booleans, dateTimes and dates; nullopt
// for other operands (and NaN).
std::optional<int> compareValues(std::string_view a, std::string_view b);

// xsd:boolean's lexical space.
std::optional<bool> parseBoolean(std::string_view lexical);

}  // namespace gsparql::engine::expr
