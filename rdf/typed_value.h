#pragma once
// The typed value of an RDF term, computed once at load time so that FILTER
// comparisons and ORDER BY on numbers, booleans and dates need not decode and
// parse the term per row. One TypedValue per vertex id is stored in the
// generation's `values` file (storage/value_column.h); its layout is part of
// that file format, so it is fixed: 16 bytes, trivially copyable, no pointers.
//
// The column serves ordering and comparison. Rounding to double is monotone
// (a < b implies double(a) <= double(b)), so values whose stored numbers
// differ are ordered by them; where they are equal and not both `exact`, or
// the kind is None, the engine evaluates from the terms themselves. `exact`
// may be unset for a few exactly representable decimals of more than 38
// digits: unset is always safe.
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

namespace gsparql::rdf {

struct TypedValue {
  enum class Kind : uint8_t {
    // IRIs, blank nodes, simple and language-tagged strings, literals of
    // other datatypes, ill-typed literals, and valid values that do not fit
    // here (dates outside +-292,000 years).
    None = 0,
    // xsd:integer and the types derived from it (long, int, short, byte,
    // unsigned*, nonNegativeInteger, ...), when the value fits int64 (larger
    // ones are Decimal): `integer`.
    Integer = 1,
    // xsd:decimal, and integers beyond int64: `number`, the nearest double;
    // `exact` when that double is the value.
    Decimal = 2,
    // xsd:double and xsd:float (a float widened to double): `number`, always
    // exact; INF, -INF and NaN included.
    Double = 3,
    // xsd:boolean: `integer` 0 or 1.
    Boolean = 4,
    // xsd:dateTime, xsd:dateTimeStamp and xsd:date (flag kDate, at 00:00):
    // `micros`, microseconds since 1970-01-01T00:00:00Z. With a timezone
    // (flag kTimezone) the instant in UTC, `timezoneMinutes` the offset as
    // written; without, the local time taken as if it were UTC. `exact`
    // unless the seconds had digits beyond microseconds that are not zero.
    DateTime = 5,
  };
  enum Flags : uint8_t {
    kExact = 1,     // the stored number is the literal's value, not a rounding of it
    kTimezone = 2,  // DateTime: the literal had a timezone ("Z" or +hh:mm / -hh:mm)
    kDate = 4,      // DateTime: the literal was an xsd:date
  };

  Kind kind = Kind::None;
  uint8_t flags = 0;
  int16_t timezoneMinutes = 0;  // DateTime with kTimezone: -840 .. 840
  uint32_t reserved = 0;        // zero
  union {
    int64_t integer = 0;  // Integer, Boolean
    double number;        // Decimal, Double
    int64_t micros;       // DateTime
  };

  bool exact() const { return (flags & kExact) != 0; }
  bool hasTimezone() const { return (flags & kTimezone) != 0; }
  bool isDate() const { return (flags & kDate) != 0; }

  // Byte-wise: NaN equals the same NaN, 0.0 differs from -0.0.
  friend bool operator==(const TypedValue& a, const TypedValue& b) {
    return std::memcmp(&a, &b, sizeof(TypedValue)) == 0;
  }
};
static_assert(sizeof(TypedValue) == 16);
static_assert(alignof(TypedValue) == 8);
static_assert(std::is_trivially_copyable_v<TypedValue>);
static_assert(std::is_standard_layout_v<TypedValue>);

// The value of `term` in rdf/term.h form, e.g. "12"^^<http://www.w3.org/2001/
// XMLSchema#integer>. Only valid XSD lexical forms count: "+1" is the integer
// 1, but " 1", "1.", "0x1" and "" are not integers (kind None). Thread-safe.
TypedValue typedValueOf(std::string_view term);

}  // namespace gsparql::rdf
