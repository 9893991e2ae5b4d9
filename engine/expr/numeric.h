#pragma once
// Numeric values (XPath: integer, decimal, float, double and the types derived
// from integer), type promotion, arithmetic and canonical forms. Integers and
// decimals are exact: a 128-bit mantissa with a decimal scale (38 digits);
// results that do not fit are errors.
#include <optional>
#include <string>
#include <string_view>

#include "engine/expr/terms.h"

namespace gsparql::engine::expr {

__extension__ typedef __int128 Int128;

// mantissa / 10^scale. The scale is the one written ("1.0" has 1) or the one
// arithmetic gives, as Java's BigDecimal: a sum has the larger scale of its
// operands, a product their sum, CEIL/FLOOR/ROUND 0.
struct Decimal {
  Int128 mantissa = 0;
  int scale = 0;
};

// In promotion order: a binary operation computes in the larger of its types.
enum class NumType { Integer, Decimal, Float, Double };

struct Number {
  NumType type = NumType::Integer;
  Decimal exact;        // Integer (scale 0) and Decimal
  double approx = 0.0;  // Float (rounded to float precision) and Double

  double toDouble() const;
  static Number integer(Int128 value) { return {NumType::Integer, {value, 0}, 0.0}; }
  static Number floating(NumType type, double value) { return {type, {}, value}; }
};

bool isNumericDatatype(std::string_view datatype);
// nullopt when the term is not a literal of a numeric type with a valid
// lexical form (derived integer types: within their range).
std::optional<Number> parseNumber(const TermValue& term);
// The lexical form read as `type` (casts from strings).
std::optional<Number> parseLexical(NumType type, std::string_view lexical);

// The literal of the value, datatype of its type (xsd:integer for integers).
std::string numberTerm(const Number& number);
// The lexical form of a computed value, XSD 1.0 canonical as Jena writes it:
// decimals without trailing zeros but with a fraction digit ("6.0", "0.5"),
// floats and doubles in scientific form ("2.5E0", "4.0E-1", "3.21E4").
std::string canonicalLexical(const Number& number);
// The value cast to xsd:string (XPath): decimals without trailing zeros
// ("0.0" gives "0"), floats and doubles of magnitude in [10^-6, 10^6)
// without exponent ("1.25"), other values as canonicalLexical.
std::string stringLexical(const Number& number);
std::string numTypeDatatype(NumType type);

// op is one of + - * /. nullopt: division by zero of exact numbers, overflow.
std::optional<Number> arithmetic(char op, const Number& a, const Number& b);
Number negate(const Number& a);
// <0, 0, >0; nullopt when a NaN takes part.
std::optional<int> compareNumbers(const Number& a, const Number& b);
// A value as `type` (casts): integers truncate; NaN and infinities have no
// exact value.
std::optional<Number> convertNumber(const Number& a, NumType type);

enum class Rounding { Abs, Ceil, Floor, Round };
std::optional<Number> roundNumber(Rounding how, const Number& a);

}  // namespace gsparql::engine::expr
