#include "engine/expr/numeric.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace gsparql::engine::expr {
namespace {

constexpr int kMaxDigits = 38;          // what an Int128 mantissa always holds
constexpr int kDivisionDigits = 24;     // fraction digits of a decimal quotient (as Jena)
constexpr Int128 kInt128Min = Int128(1) << 127;

struct IntegerRange {
  std::string_view name;
  std::optional<Int128> min, max;
};

// Types derived from xsd:integer, with the value range each allows.
const IntegerRange kIntegerTypes[] = {
    {"integer", {}, {}},
    {"nonPositiveInteger", {}, 0},
    {"negativeInteger", {}, -1},
    {"long", -(Int128(1) << 63), (Int128(1) << 63) - 1},
    {"int", -(Int128(1) << 31), (Int128(1) << 31) - 1},
    {"short", -32768, 32767},
    {"byte", -128, 127},
    {"nonNegativeInteger", 0, {}},
    {"unsignedLong", 0, (Int128(1) << 64) - 1},
    {"unsignedInt", 0, (Int128(1) << 32) - 1},
    {"unsignedShort", 0, 65535},
    {"unsignedByte", 0, 255},
    {"positiveInteger", 1, {}},
};

const IntegerRange* integerType(std::string_view local) {
  for (const IntegerRange& r : kIntegerTypes) {
    if (r.name == local) return &r;
  }
  return nullptr;
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

std::optional<Int128> pow10(int n) {
  if (n < 0 || n > kMaxDigits) return std::nullopt;
  Int128 p = 1;
  for (int i = 0; i < n; ++i) p *= 10;
  return p;
}

std::optional<Int128> scaleUp(Int128 m, int digits) {
  auto p = pow10(digits);
  Int128 out;
  if (!p || __builtin_mul_overflow(m, *p, &out)) return std::nullopt;
  return out;
}

Decimal normalized(Decimal d) {
  while (d.scale > 0 && d.mantissa % 10 == 0) {
    d.mantissa /= 10;
    --d.scale;
  }
  return d;
}

std::string int128String(Int128 v) {
  if (v == 0) return "0";
  bool negative = v < 0;
  std::string digits;
  while (v != 0) {
    int digit = static_cast<int>(v % 10);
    digits += static_cast<char>('0' + (digit < 0 ? -digit : digit));
    v /= 10;
  }
  if (negative) digits += '-';
  return {digits.rbegin(), digits.rend()};
}

// [+-]? digits ('.' digits?)? | [+-]? '.' digits, the decimal lexical space.
std::optional<Decimal> parseDecimal(std::string_view s, bool allowPoint) {
  size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  Decimal d;
  bool anyDigit = false, point = false;
  for (; i < s.size(); ++i) {
    if (s[i] == '.' && allowPoint && !point) {
      point = true;
      continue;
    }
    if (!isDigit(s[i])) return std::nullopt;
    anyDigit = true;
    if (point && s[i] == '0' && d.mantissa == 0) {  // leading fraction zeros cost no digits
      ++d.scale;
      continue;
    }
    if (__builtin_mul_overflow(d.mantissa, Int128(10), &d.mantissa) ||
        __builtin_add_overflow(d.mantissa, Int128(s[i] - '0'), &d.mantissa)) {
      return std::nullopt;
    }
    if (point) ++d.scale;
  }
  if (!anyDigit) return std::nullopt;
  if (negative) d.mantissa = -d.mantissa;
  return d;
}

// The decimal lexical shape without its value (mantissas of doubles may be long).
bool isDecimalShape(std::string_view s) {
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  size_t point = s.find('.');
  bool anyDigit = false;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i == point) continue;
    if (!isDigit(s[i])) return false;
    anyDigit = true;
  }
  return anyDigit;
}

// The XSD float/double lexical space: decimal with an optional exponent, INF, NaN.
bool validFloatingLexical(std::string_view s) {
  if (s == "INF" || s == "-INF" || s == "+INF" || s == "NaN") return true;
  size_t e = s.find_first_of("eE");
  std::string_view mantissa = s.substr(0, e);
  if (mantissa.empty() || !isDecimalShape(mantissa)) return false;
  if (e == std::string_view::npos) return true;
  std::string_view exponent = s.substr(e + 1);
  if (!exponent.empty() && (exponent[0] == '+' || exponent[0] == '-')) exponent.remove_prefix(1);
  if (exponent.empty()) return false;
  for (char c : exponent) {
    if (!isDigit(c)) return false;
  }
  return true;
}

std::optional<double> parseFloating(std::string_view s, bool single) {
  if (!validFloatingLexical(s)) return std::nullopt;
  if (s == "NaN") return std::nan("");
  if (s.ends_with("INF")) return s[0] == '-' ? -HUGE_VAL : HUGE_VAL;
  if (s[0] == '+') s.remove_prefix(1);
  // strtod handles the forms from_chars rejects ("1.", ".5" are both valid here).
  std::string text(s);
  if (single) return static_cast<double>(std::strtof(text.c_str(), nullptr));
  return std::strtod(text.c_str(), nullptr);
}

// Shortest round-trip digits and the exponent of the first one (v = d.ddd * 10^exp).
struct Digits {
  bool negative = false;
  std::string digits;
  int exponent = 0;
};

Digits shortestDigits(double v, bool single) {
  char buf[64];
  auto r = single ? std::to_chars(buf, buf + sizeof buf, static_cast<float>(v), std::chars_format::scientific)
                  : std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string_view text(buf, r.ptr - buf);
  Digits d;
  if (text[0] == '-') d.negative = true, text.remove_prefix(1);
  size_t e = text.find('e');
  for (char c : text.substr(0, e)) {
    if (c != '.') d.digits += c;
  }
  std::from_chars(text.data() + e + 1 + (text[e + 1] == '+'), text.data() + text.size(), d.exponent);
  while (d.digits.size() > 1 && d.digits.back() == '0') d.digits.pop_back();
  return d;
}

// The digits without an exponent: "2100", "0.25", "-3", "0".
std::string plainNumeral(const Digits& d) {
  std::string sign = d.negative ? "-" : "";
  int point = d.exponent + 1;  // digits before the decimal point
  int count = static_cast<int>(d.digits.size());
  if (point <= 0) return sign + "0." + std::string(-point, '0') + d.digits;
  if (point >= count) return sign + d.digits + std::string(point - count, '0');
  return sign + d.digits.substr(0, point) + "." + d.digits.substr(point);
}

// XSD's canonical float/double form: one digit, the point, at least one
// more digit, "E" and the exponent ("3.21E4", "4.0E-1", "0.0E0").
std::string scientific(const Digits& d) {
  std::string sign = d.negative ? "-" : "";
  std::string fraction = d.digits.size() > 1 ? d.digits.substr(1) : "0";
  return sign + d.digits.substr(0, 1) + "." + fraction + "E" + std::to_string(d.exponent);
}

// Below this magnitude XPath writes doubles without an exponent when casting
// them to strings (F&O, "Casting to xs:string").
constexpr double kPlainLimit = 1e6;

std::optional<std::string> special(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v < 0 ? "-INF" : "INF";
  return std::nullopt;
}

// XSD 1.0 canonical form, as Jena writes computed doubles' values: one
// digit before the point, at least one after, an exponent ("3.21E4", "1.0E0").
// The W3C tests' expected files disagree among themselves here ("2100" and
// "3.21E4" for two sums of doubles); the conformance runner compares numbers
// by value (docs/conformance-evaluation.md).
std::string floatingLexical(double v, bool single) {
  if (auto s = special(v)) return *s;
  return scientific(shortestDigits(v, single));
}

// XPath's cast of a float or double to xs:string.
std::string floatingString(double v, bool single) {
  if (auto s = special(v)) return *s;
  Digits d = shortestDigits(v, single);
  double magnitude = std::fabs(v);
  bool plain = magnitude == 0 || (magnitude >= 1e-6 && magnitude < kPlainLimit);
  return plain ? plainNumeral(d) : scientific(d);
}

// The decimal's digits with exactly its scale's fraction digits.
std::string scaledDigits(const Decimal& d) {
  std::string digits = int128String(d.mantissa < 0 ? -d.mantissa : d.mantissa);
  if (static_cast<int>(digits.size()) <= d.scale) digits.insert(0, d.scale - digits.size() + 1, '0');
  std::string out = d.mantissa < 0 ? "-" : "";
  size_t point = digits.size() - d.scale;
  out += digits.substr(0, point);
  return d.scale == 0 ? out : out + "." + digits.substr(point);
}

// XSD 1.0 canonical form, as Jena writes computed decimals: no trailing
// zeros but at least one fraction digit ("3.0", "0.5", "-1.25").
std::string decimalLexical(const Decimal& d) {
  const std::string digits = scaledDigits(normalized(d));
  return digits.find('.') == std::string::npos ? digits + ".0" : digits;
}

std::optional<Decimal> decimalOfDouble(double v) {
  if (!std::isfinite(v)) return std::nullopt;
  if (v == 0) return Decimal{};
  Digits d = shortestDigits(v, false);
  auto m = parseDecimal(d.digits, false);
  if (!m) return std::nullopt;
  int shift = d.exponent - static_cast<int>(d.digits.size()) + 1;  // v = m * 10^shift
  Decimal out{d.negative ? -m->mantissa : m->mantissa, 0};
  if (shift >= 0) {
    auto up = scaleUp(out.mantissa, shift);
    if (!up) return std::nullopt;
    out.mantissa = *up;
  } else {
    out.scale = -shift;
  }
  return normalized(out);
}

double decimalToDouble(const Decimal& d) {
  std::string text = int128String(d.mantissa) + "e-" + std::to_string(d.scale);
  return std::strtod(text.c_str(), nullptr);
}

std::optional<std::pair<Int128, Int128>> aligned(const Decimal& a, const Decimal& b) {
  int scale = std::max(a.scale, b.scale);
  auto x = scaleUp(a.mantissa, scale - a.scale);
  auto y = scaleUp(b.mantissa, scale - b.scale);
  if (!x || !y) return std::nullopt;
  return std::pair{*x, *y};
}

// Quotient rounded half away from zero.
Int128 roundedQuotient(Int128 num, Int128 den) {
  Int128 q = num / den, r = num % den;
  Int128 twice = r < 0 ? -r : r;
  Int128 absDen = den < 0 ? -den : den;
  if (twice >= absDen - twice) q += ((num < 0) != (den < 0)) ? -1 : 1;
  return q;
}

std::optional<Decimal> divideDecimals(const Decimal& a, const Decimal& b) {
  if (b.mantissa == 0) return std::nullopt;
  for (int digits = kDivisionDigits; digits >= 0; --digits) {
    int k = b.scale - a.scale + digits;  // a/b * 10^digits = am * 10^k / bm
    Int128 num = a.mantissa, den = b.mantissa;
    auto scaled = k >= 0 ? scaleUp(num, k) : scaleUp(den, -k);
    if (!scaled) continue;
    (k >= 0 ? num : den) = *scaled;
    return normalized({roundedQuotient(num, den), digits});
  }
  return std::nullopt;
}

std::optional<Decimal> exactArithmetic(char op, const Decimal& a, const Decimal& b) {
  if (op == '/') return divideDecimals(a, b);
  Decimal out;
  if (op == '*') {
    if (__builtin_mul_overflow(a.mantissa, b.mantissa, &out.mantissa)) return std::nullopt;
    out.scale = a.scale + b.scale;
    return out;
  }
  auto ab = aligned(a, b);
  if (!ab) return std::nullopt;
  out.scale = std::max(a.scale, b.scale);
  bool overflow = op == '+' ? __builtin_add_overflow(ab->first, ab->second, &out.mantissa)
                            : __builtin_sub_overflow(ab->first, ab->second, &out.mantissa);
  if (overflow) return std::nullopt;
  return out;
}

double floatingArithmetic(char op, double x, double y) {
  switch (op) {
    case '+': return x + y;
    case '-': return x - y;
    case '*': return x * y;
    default: return x / y;
  }
}

Int128 floorDiv(Int128 m, Int128 p) {
  Int128 q = m / p;
  return (m % p != 0 && m < 0) ? q - 1 : q;
}

Decimal roundDecimal(Rounding how, const Decimal& d) {
  if (how == Rounding::Abs) return {d.mantissa < 0 ? -d.mantissa : d.mantissa, d.scale};
  if (d.scale == 0) return d;
  Int128 p = *pow10(d.scale);
  if (how == Rounding::Floor) return {floorDiv(d.mantissa, p), 0};
  if (how == Rounding::Ceil) return {-floorDiv(-d.mantissa, p), 0};
  return {floorDiv(d.mantissa * 2 + p, 2 * p), 0};  // floor(x + 1/2)
}

}  // namespace

double Number::toDouble() const {
  return type == NumType::Float || type == NumType::Double ? approx : decimalToDouble(exact);
}

bool isNumericDatatype(std::string_view datatype) {
  std::string_view local = xsdLocal(datatype);
  return integerType(local) || local == "decimal" || local == "float" || local == "double";
}

std::optional<Number> parseLexical(NumType type, std::string_view lexical) {
  if (type == NumType::Float || type == NumType::Double) {
    auto v = parseFloating(lexical, type == NumType::Float);
    if (!v) return std::nullopt;
    return Number::floating(type, *v);
  }
  auto d = parseDecimal(lexical, type == NumType::Decimal);
  if (!d) return std::nullopt;
  return Number{type, *d, 0.0};
}

std::optional<Number> parseNumber(const TermValue& term) {
  if (!term.isLiteral()) return std::nullopt;
  std::string_view local = xsdLocal(term.datatype);
  if (local == "decimal") return parseLexical(NumType::Decimal, term.value);
  if (local == "float") return parseLexical(NumType::Float, term.value);
  if (local == "double") return parseLexical(NumType::Double, term.value);
  const IntegerRange* range = integerType(local);
  if (!range) return std::nullopt;
  auto n = parseLexical(NumType::Integer, term.value);
  if (!n || (range->min && n->exact.mantissa < *range->min) || (range->max && n->exact.mantissa > *range->max)) {
    return std::nullopt;
  }
  return n;
}

std::string canonicalLexical(const Number& n) {
  switch (n.type) {
    case NumType::Integer: return int128String(n.exact.mantissa);
    case NumType::Decimal: return decimalLexical(n.exact);
    case NumType::Float: return floatingLexical(n.approx, true);
    case NumType::Double: return floatingLexical(n.approx, false);
  }
  return {};
}

std::string stringLexical(const Number& n) {
  if (n.type == NumType::Integer) return canonicalLexical(n);
  if (n.type == NumType::Decimal) return scaledDigits(normalized(n.exact));
  return floatingString(n.approx, n.type == NumType::Float);
}

std::string numTypeDatatype(NumType type) {
  static const char* const names[] = {"integer", "decimal", "float", "double"};
  return xsd(names[static_cast<int>(type)]);
}

std::string numberTerm(const Number& n) {
  return rdf::literalTerm(canonicalLexical(n), {}, numTypeDatatype(n.type));
}

std::optional<Number> convertNumber(const Number& a, NumType type) {
  if (a.type == type) return a;
  if (type == NumType::Float) return Number::floating(type, static_cast<float>(a.toDouble()));
  if (type == NumType::Double) return Number::floating(type, a.toDouble());
  std::optional<Decimal> d = a.type <= NumType::Decimal ? std::optional(a.exact) : decimalOfDouble(a.approx);
  if (!d) return std::nullopt;
  if (type == NumType::Integer) d = Decimal{d->mantissa / *pow10(d->scale), 0};  // truncation
  return Number{type, *d, 0.0};
}

std::optional<Number> arithmetic(char op, const Number& a, const Number& b) {
  NumType type = std::max(a.type, b.type);
  if (type >= NumType::Float) {
    double x = a.toDouble(), y = b.toDouble();
    double r = floatingArithmetic(op, x, y);
    if (type == NumType::Float) r = floatingArithmetic(op, static_cast<float>(x), static_cast<float>(y));
    return Number::floating(type, type == NumType::Float ? static_cast<float>(r) : r);
  }
  auto r = exactArithmetic(op, a.exact, b.exact);
  if (!r) return std::nullopt;
  // integer / integer is a decimal (SPARQL 1.1, 17.3).
  NumType resultType = op == '/' ? NumType::Decimal : type;
  return Number{resultType, *r, 0.0};
}

Number negate(const Number& a) {
  Number out = a;
  if (a.type >= NumType::Float) {
    out.approx = -a.approx;
  } else if (a.exact.mantissa != kInt128Min) {
    out.exact.mantissa = -a.exact.mantissa;
  }
  return out;
}

std::optional<int> compareNumbers(const Number& a, const Number& b) {
  if (std::max(a.type, b.type) <= NumType::Decimal) {
    if (auto ab = aligned(a.exact, b.exact)) return ab->first < ab->second ? -1 : ab->first > ab->second;
  }
  double x = a.toDouble(), y = b.toDouble();
  if (std::isnan(x) || std::isnan(y)) return std::nullopt;
  return x < y ? -1 : x > y;
}

std::optional<Number> roundNumber(Rounding how, const Number& a) {
  if (a.type <= NumType::Decimal) {
    if (how == Rounding::Abs && a.exact.mantissa == kInt128Min) return std::nullopt;
    return Number{a.type, roundDecimal(how, a.exact), 0.0};
  }
  double v = a.approx;
  switch (how) {
    case Rounding::Abs: v = std::fabs(v); break;
    case Rounding::Ceil: v = std::ceil(v); break;
    case Rounding::Floor: v = std::floor(v); break;
    case Rounding::Round: v = std::isfinite(v) ? std::floor(v + 0.5) : v; break;
  }
  return Number::floating(a.type, v);
}

}  // namespace gsparql::engine::expr
