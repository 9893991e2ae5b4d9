#pragma once
// Comparing terms by value: `=` and `!=` (RDFterm-equal extended to the
// operand types of section 17.3), `<` and friends. ORDER BY's total order of
// terms, which MIN and MAX use too, is term_order.h.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/expr/terms.h"

namespace gsparql::engine::expr {

// nullopt: a type error (literals of unknown or ill-typed datatypes that are
// not the same term, dateTimes whose order depends on a missing timezone).
std::optional<bool> valuesEqual(std::string_view a, std::string_view b);
// <0, 0, >0 for numbers, strings, booleans, dateTimes and dates; nullopt
// for other operands (and NaN).
std::optional<int> compareValues(std::string_view a, std::string_view b);

// What `=` needs to know of a term to find its equals by hashing (IN's set of
// constants, value_set.h). Two terms that valuesEqual() finds equal share a
// key: the same term (`termKey`), or equal numbers, booleans or strings
// (`valueKeys`); dates and times, whose equal values may differ in their
// timezones, are compared one by one instead.
struct EqualityKeys {
  std::string termKey;                 // rdf::termKey: begins with '<', '"' or '_'
  std::vector<std::string> valueKeys;  // each begins with a letter naming its kind
  bool comparedOneByOne = false;  // a date or dateTime
  bool unknownDatatype = false;   // a literal whose datatype has no value comparison here
  // A literal that is not language-tagged: `=` with an unknownDatatype
  // literal that is not the same term is an error (section 17.4.1.7).
  bool valueLiteral = false;
};
EqualityKeys equalityKeys(std::string_view term);

// xsd:boolean's lexical space.
std::optional<bool> parseBoolean(std::string_view lexical);

}  // namespace gsparql::engine::expr
