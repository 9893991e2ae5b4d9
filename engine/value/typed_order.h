#pragma once
// Orders two typed values (rdf/typed_value.h) the way SPARQL's operators
// compare numbers and dates, when the stored values are enough to tell:
// numbers of any numeric type by value, dateTimes with a timezone each (or
// dates with a timezone each) by instant. nullopt when they are not: other
// kinds, NaN, mixed timezone presence, or values that round to the same
// double without being exact; the caller then compares the terms.
#include <optional>

#include "rdf/typed_value.h"

namespace gsparql::engine {

std::optional<int> compareTypedValues(const rdf::TypedValue& a, const rdf::TypedValue& b);

// Integer, decimal or double (float included).
bool isNumber(const rdf::TypedValue& v);

}  // namespace gsparql::engine
