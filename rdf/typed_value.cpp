#include "rdf/typed_value.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "rdf/term.h"

namespace gsparql::rdf {
namespace {

using Kind = TypedValue::Kind;
__extension__ typedef unsigned __int128 u128;

bool isDigit(char c) { return c >= '0' && c <= '9'; }

bool allDigits(std::string_view s) {
  for (char c : s) {
    if (!isDigit(c)) return false;
  }
  return true;
}

// A decimal number split into sign, integer digits and fraction digits, as
// written (digits only, possibly empty parts).
struct DecimalParts {
  bool negative = false;
  std::string_view whole;
  std::string_view fraction;
};

// (\+|-)? digits, where digits is [0-9]+ (integer) or
// ([0-9]+(\.[0-9]*)?|\.[0-9]+) (decimal, and the mantissa of a double).
std::optional<DecimalParts> splitDecimal(std::string_view s, bool allowPoint) {
  DecimalParts parts;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    parts.negative = s.front() == '-';
    s.remove_prefix(1);
  }
  size_t point = allowPoint ? s.find('.') : std::string_view::npos;
  parts.whole = s.substr(0, point);
  if (point != std::string_view::npos) parts.fraction = s.substr(point + 1);
  if (parts.whole.empty() && parts.fraction.empty()) return std::nullopt;
  if (!allDigits(parts.whole) || !allDigits(parts.fraction)) return std::nullopt;
  return parts;
}

std::string_view stripLeadingZeros(std::string_view s) {
  while (!s.empty() && s.front() == '0') s.remove_prefix(1);
  return s;
}

std::string_view stripTrailingZeros(std::string_view s) {
  while (!s.empty() && s.back() == '0') s.remove_suffix(1);
  return s;
}

// Whether the decimal whole.fraction is a double exactly. Decimals of more
// than 38 significant digits are reported inexact (safe; rarely wrong).
bool decimalIsExactDouble(std::string_view whole, std::string_view fraction) {
  fraction = stripTrailingZeros(fraction);
  std::string digits(whole);
  digits += fraction;
  std::string_view significant = stripLeadingZeros(digits);
  if (significant.empty()) return true;  // zero
  if (significant.size() > 38) return false;
  u128 m = 0;
  for (char c : significant) m = m * 10 + static_cast<unsigned>(c - '0');
  // value = m / 10^k = (m / 5^k) / 2^k: exact iff 5^k divides m and the
  // quotient's odd part has at most 53 bits (k <= 38, far from subnormals).
  const size_t k = fraction.size();
  if (k > 54) return false;  // 5^k > 10^38 > m
  u128 five = 1;
  for (size_t i = 0; i < k; ++i) five *= 5;
  if (m % five != 0) return false;
  u128 q = m / five;
  while ((q & 1) == 0) q >>= 1;
  return q < (u128{1} << 53);
}

// A value beyond the range of T (from_chars reports it without a value):
// infinity when the number's decimal exponent is positive, else zero.
template <typename T>
T outOfRange(const DecimalParts& m, int64_t exponent) {
  std::string_view whole = stripLeadingZeros(m.whole);
  int64_t magnitude = exponent;
  if (!whole.empty()) {
    magnitude += static_cast<int64_t>(whole.size()) - 1;
  } else {
    size_t zeros = 0;
    while (zeros < m.fraction.size() && m.fraction[zeros] == '0') ++zeros;
    magnitude -= static_cast<int64_t>(zeros) + 1;
  }
  T v = magnitude > 0 ? std::numeric_limits<T>::infinity() : T{0};
  return m.negative ? -v : v;
}

// Parses [+-]?mantissa([eE][+-]?[0-9]+)? into T with correct rounding.
template <typename T>
std::optional<T> parseFloating(const DecimalParts& m, std::string_view exponentDigits, bool exponentNegative) {
  std::string text;
  text.reserve(m.whole.size() + m.fraction.size() + exponentDigits.size() + 5);
  if (m.negative) text += '-';
  text += m.whole.empty() ? std::string_view("0") : m.whole;
  if (!m.fraction.empty()) {
    text += '.';
    text += m.fraction;
  }
  int64_t exponent = 0;
  if (!exponentDigits.empty()) {
    text += exponentNegative ? "e-" : "e";
    text += exponentDigits;
    for (char c : exponentDigits) {
      exponent = std::min<int64_t>(exponent * 10 + (c - '0'), int64_t{1} << 40);
    }
    if (exponentNegative) exponent = -exponent;
  }
  T value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::general);
  if (ec == std::errc::result_out_of_range) return outOfRange<T>(m, exponent);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

TypedValue numberValue(Kind kind, double number, bool exact) {
  TypedValue v;
  v.kind = kind;
  v.flags = exact ? TypedValue::kExact : 0;
  v.number = number;
  return v;
}

TypedValue decimalValue(const DecimalParts& parts) {
  auto number = parseFloating<double>(parts, {}, false);
  if (!number) return {};
  return numberValue(Kind::Decimal, *number, std::isfinite(*number) && decimalIsExactDouble(parts.whole, parts.fraction));
}

// Bounds of the integer types, as (negative allowed, min magnitude if
// negative, max magnitude if positive); unbounded types have no bounds.
struct IntegerRange {
  bool bounded;
  u128 maxNegative;  // largest allowed magnitude of a negative value (0: none)
  u128 maxPositive;  // largest allowed positive value
  bool zeroAllowed;
};

std::optional<IntegerRange> integerRange(std::string_view type) {
  constexpr u128 unbounded = ~u128{0};
  auto range = [](u128 neg, u128 pos) { return IntegerRange{true, neg, pos, true}; };
  if (type == "integer") return IntegerRange{false, unbounded, unbounded, true};
  if (type == "long") return range(u128{1} << 63, (u128{1} << 63) - 1);
  if (type == "int") return range(u128{1} << 31, (u128{1} << 31) - 1);
  if (type == "short") return range(u128{1} << 15, (u128{1} << 15) - 1);
  if (type == "byte") return range(u128{1} << 7, (u128{1} << 7) - 1);
  if (type == "unsignedLong") return range(0, (u128{1} << 64) - 1);
  if (type == "unsignedInt") return range(0, (u128{1} << 32) - 1);
  if (type == "unsignedShort") return range(0, (u128{1} << 16) - 1);
  if (type == "unsignedByte") return range(0, (u128{1} << 8) - 1);
  if (type == "nonNegativeInteger") return IntegerRange{false, 0, unbounded, true};
  if (type == "positiveInteger") return IntegerRange{false, 0, unbounded, false};
  if (type == "nonPositiveInteger") return IntegerRange{false, unbounded, 0, true};
  if (type == "negativeInteger") return IntegerRange{false, unbounded, 0, false};
  return std::nullopt;
}

TypedValue integerValue(std::string_view lexical, const IntegerRange& range) {
  auto parts = splitDecimal(lexical, false);
  if (!parts) return {};
  std::string_view digits = stripLeadingZeros(parts->whole);
  if (digits.empty()) {
    if (!range.zeroAllowed) return {};
    TypedValue v;
    v.kind = Kind::Integer;
    v.flags = TypedValue::kExact;
    v.integer = 0;
    return v;
  }
  const bool negative = parts->negative;
  if (digits.size() > 38) {  // beyond every bounded type, and beyond int64
    if (range.bounded || (negative ? range.maxNegative : range.maxPositive) == 0) return {};
    return decimalValue(DecimalParts{negative, digits, {}});
  }
  u128 magnitude = 0;
  for (char c : digits) magnitude = magnitude * 10 + static_cast<unsigned>(c - '0');
  if (magnitude > (negative ? range.maxNegative : range.maxPositive)) return {};
  if (negative ? magnitude > (u128{1} << 63) : magnitude > (u128{1} << 63) - 1) {
    return decimalValue(DecimalParts{negative, digits, {}});
  }
  TypedValue v;
  v.kind = Kind::Integer;
  v.flags = TypedValue::kExact;
  v.integer = negative ? static_cast<int64_t>(-static_cast<uint64_t>(magnitude)) : static_cast<int64_t>(magnitude);
  return v;
}

// xsd:double / xsd:float: (\+|-)?([0-9]+(\.[0-9]*)?|\.[0-9]+)([Ee](\+|-)?[0-9]+)?
// | (\+|-)?INF | NaN (XSD 1.1; "+INF" is new there).
template <typename T>
TypedValue floatingValue(std::string_view lexical) {
  double number;
  if (lexical == "INF" || lexical == "+INF") {
    number = std::numeric_limits<double>::infinity();
  } else if (lexical == "-INF") {
    number = -std::numeric_limits<double>::infinity();
  } else if (lexical == "NaN") {
    number = std::numeric_limits<double>::quiet_NaN();
  } else {
    size_t e = lexical.find_first_of("eE");
    std::string_view exponent;
    bool exponentNegative = false;
    if (e != std::string_view::npos) {
      exponent = lexical.substr(e + 1);
      if (!exponent.empty() && (exponent.front() == '+' || exponent.front() == '-')) {
        exponentNegative = exponent.front() == '-';
        exponent.remove_prefix(1);
      }
      if (exponent.empty() || !allDigits(exponent)) return {};
    }
    auto mantissa = splitDecimal(lexical.substr(0, e), true);
    if (!mantissa) return {};
    auto value = parseFloating<T>(*mantissa, exponent, exponentNegative);
    if (!value) return {};
    number = static_cast<double>(*value);
  }
  return numberValue(Kind::Double, number, true);
}

TypedValue booleanValue(std::string_view lexical) {
  TypedValue v;
  if (lexical == "true" || lexical == "1") {
    v.integer = 1;
  } else if (lexical == "false" || lexical == "0") {
    v.integer = 0;
  } else {
    return {};
  }
  v.kind = Kind::Boolean;
  v.flags = TypedValue::kExact;
  return v;
}

// ---- dates ----

bool isLeapYear(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int daysInMonth(int64_t year, int month) {
  static constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && isLeapYear(year) ? 29 : days[month - 1];
}

// Days since 1970-01-01 in the proleptic Gregorian calendar, year 0 = 1 BCE
// (H. Hinnant's days_from_civil).
int64_t daysFromCivil(int64_t y, int m, int d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

// Reads exactly `n` digits.
bool readDigits(std::string_view& s, size_t n, int& out) {
  if (s.size() < n) return false;
  out = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!isDigit(s[i])) return false;
    out = out * 10 + (s[i] - '0');
  }
  s.remove_prefix(n);
  return true;
}

bool readChar(std::string_view& s, char c) {
  if (s.empty() || s.front() != c) return false;
  s.remove_prefix(1);
  return true;
}

// Years beyond this do not fit int64 microseconds (about +-292,277 years).
constexpr int64_t kMaxYear = 290000;

// -?YYYY-MM-DD('T'hh:mm:ss('.'s+)?)?(Z|(+|-)hh:mm)?, with the time required
// for dateTime and absent for date; the timezone required if `needTimezone`.
TypedValue dateTimeValue(std::string_view s, bool date, bool needTimezone) {
  const bool negativeYear = readChar(s, '-');
  size_t yearDigits = 0;
  while (yearDigits < s.size() && isDigit(s[yearDigits])) ++yearDigits;
  if (yearDigits < 4 || (yearDigits > 4 && s.front() == '0')) return {};
  if (yearDigits > 9) return {};  // valid, but far beyond kMaxYear
  int64_t year = 0;
  for (size_t i = 0; i < yearDigits; ++i) year = year * 10 + (s[i] - '0');
  s.remove_prefix(yearDigits);
  if (negativeYear) year = -year;
  int month, day;
  if (!readChar(s, '-') || !readDigits(s, 2, month) || month < 1 || month > 12) return {};
  if (!readChar(s, '-') || !readDigits(s, 2, day) || day < 1 || day > daysInMonth(year, month)) return {};
  int hour = 0, minute = 0, second = 0;
  int64_t micros = 0;
  bool exact = true;
  if (!date) {
    if (!readChar(s, 'T') || !readDigits(s, 2, hour) || !readChar(s, ':') || !readDigits(s, 2, minute) ||
        !readChar(s, ':') || !readDigits(s, 2, second)) {
      return {};
    }
    bool fractionNonZero = false;
    if (readChar(s, '.')) {
      size_t n = 0;
      while (n < s.size() && isDigit(s[n])) {
        if (n < 6) {
          micros = micros * 10 + (s[n] - '0');
        } else if (s[n] != '0') {
          exact = false;
        }
        fractionNonZero = fractionNonZero || s[n] != '0';
        ++n;
      }
      if (n == 0) return {};
      for (size_t i = n; i < 6; ++i) micros *= 10;
      s.remove_prefix(n);
    }
    if (minute > 59 || second > 59) return {};
    if (hour > 24 || (hour == 24 && (minute != 0 || second != 0 || fractionNonZero))) return {};
  }
  TypedValue v;
  v.kind = Kind::DateTime;
  int offsetMinutes = 0;
  if (!s.empty()) {
    if (s == "Z") {
      s.remove_prefix(1);
    } else {
      const bool negativeOffset = s.front() == '-';
      if (!negativeOffset && s.front() != '+') return {};
      s.remove_prefix(1);
      int oh, om;
      if (!readDigits(s, 2, oh) || !readChar(s, ':') || !readDigits(s, 2, om) || !s.empty()) return {};
      if (om > 59 || oh > 14 || (oh == 14 && om != 0)) return {};
      offsetMinutes = (negativeOffset ? -1 : 1) * (oh * 60 + om);
    }
    v.flags |= TypedValue::kTimezone;
    v.timezoneMinutes = static_cast<int16_t>(offsetMinutes);
  } else if (needTimezone) {
    return {};
  }
  if (year > kMaxYear || year < -kMaxYear) return {};
  const int64_t seconds = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second -
                          int64_t{offsetMinutes} * 60;
  v.micros = seconds * 1000000 + micros;
  if (exact) v.flags |= TypedValue::kExact;
  if (date) v.flags |= TypedValue::kDate;
  return v;
}

}  // namespace

TypedValue typedValueOf(std::string_view term) {
  if (term.size() < 2 || term.front() != '"' || term.back() != '>') return {};
  const size_t marker = term.rfind("\"^^<");
  if (marker == std::string_view::npos || marker == 0) return {};
  std::string_view datatype = term.substr(marker + 4, term.size() - marker - 5);
  if (!datatype.starts_with(kXsd)) return {};
  datatype.remove_prefix(kXsd.size());
  const std::string_view lexical = term.substr(1, marker - 1);
  if (auto range = integerRange(datatype)) return integerValue(lexical, *range);
  if (datatype == "decimal") {
    auto parts = splitDecimal(lexical, true);
    return parts ? decimalValue(*parts) : TypedValue{};
  }
  if (datatype == "double") return floatingValue<double>(lexical);
  if (datatype == "float") return floatingValue<float>(lexical);
  if (datatype == "boolean") return booleanValue(lexical);
  if (datatype == "dateTime") return dateTimeValue(lexical, false, false);
  if (datatype == "dateTimeStamp") return dateTimeValue(lexical, false, true);
  if (datatype == "date") return dateTimeValue(lexical, true, false);
  return {};
}

}  // namespace gsparql::rdf
