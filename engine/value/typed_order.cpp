#include "engine/value/typed_order.h"

#include <cmath>

namespace gsparql::engine {
namespace {

using Kind = rdf::TypedValue::Kind;

// The value as a double and whether that double is the value itself.
std::pair<double, bool> asDouble(const rdf::TypedValue& v) {
  if (v.kind != Kind::Integer) return {v.number, v.exact() || v.kind == Kind::Double};
  constexpr int64_t kExactLimit = int64_t{1} << 53;  // beyond it, not every integer is a double
  return {static_cast<double>(v.integer), v.integer >= -kExactLimit && v.integer <= kExactLimit};
}

template <typename T>
int threeWay(T a, T b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

std::optional<int> compareNumbers(const rdf::TypedValue& a, const rdf::TypedValue& b) {
  if (a.kind == Kind::Integer && b.kind == Kind::Integer) return threeWay(a.integer, b.integer);
  const auto [x, xExact] = asDouble(a);
  const auto [y, yExact] = asDouble(b);
  if (std::isnan(x) || std::isnan(y)) return std::nullopt;
  if (x != y) return threeWay(x, y);  // rounding to double keeps the order of different values
  if (xExact && yExact) return 0;
  return std::nullopt;
}

std::optional<int> compareDates(const rdf::TypedValue& a, const rdf::TypedValue& b) {
  // Without a timezone on both sides the order may depend on the timezone;
  // dates and dateTimes do not compare at all.
  if (!a.hasTimezone() || !b.hasTimezone() || a.isDate() != b.isDate()) return std::nullopt;
  if (a.micros != b.micros) return threeWay(a.micros, b.micros);
  if (a.exact() && b.exact()) return 0;
  return std::nullopt;
}

}  // namespace

bool isNumber(const rdf::TypedValue& v) {
  return v.kind == Kind::Integer || v.kind == Kind::Decimal || v.kind == Kind::Double;
}

std::optional<int> compareTypedValues(const rdf::TypedValue& a, const rdf::TypedValue& b) {
  if (isNumber(a) && isNumber(b)) return compareNumbers(a, b);
  if (a.kind == Kind::DateTime && b.kind == Kind::DateTime) return compareDates(a, b);
  return std::nullopt;
}

}  // namespace gsparql::engine
