// Operators (section 17.3) and the numeric and date/time functions
// (sections 17.4.4 and 17.4.5).
#include "engine/expr/builtins.h"
#include "engine/expr/datetime.h"
#include "engine/expr/numeric.h"
#include "engine/expr/values.h"

namespace gsparql::engine::expr {
namespace {

std::optional<bool> equal(const std::vector<Arg>& a, CallContext&) { return valuesEqual(a[0].text, a[1].text); }

std::optional<bool> notEqual(const std::vector<Arg>& a, CallContext&) {
  const std::optional<bool> r = valuesEqual(a[0].text, a[1].text);
  if (!r) return std::nullopt;
  return !*r;
}

template <bool (*Test)(int)>
std::optional<bool> ordered(const std::vector<Arg>& a, CallContext&) {
  const std::optional<int> c = compareValues(a[0].text, a[1].text);
  if (!c) return std::nullopt;
  return Test(*c);
}

bool less(int c) { return c < 0; }
bool greater(int c) { return c > 0; }
bool lessOrEqual(int c) { return c <= 0; }
bool greaterOrEqual(int c) { return c >= 0; }

template <char Op>
Result arithmeticOp(const std::vector<Arg>& a, CallContext&) {
  auto x = parseNumber(a[0].term), y = parseNumber(a[1].term);
  if (!x || !y) return std::nullopt;
  auto r = arithmetic(Op, *x, *y);
  if (!r) return std::nullopt;
  return numberTerm(*r);
}

Result unaryPlus(const std::vector<Arg>& a, CallContext&) {
  if (!parseNumber(a[0].term)) return std::nullopt;
  return std::string(a[0].text);
}

Result unaryMinus(const std::vector<Arg>& a, CallContext&) {
  auto x = parseNumber(a[0].term);
  if (!x) return std::nullopt;
  return numberTerm(negate(*x));
}

std::optional<bool> logicalNot(const std::vector<Arg>& a, CallContext&) {
  const std::optional<bool> v = effectiveBooleanValue(a[0].text);
  if (!v) return std::nullopt;
  return !*v;
}

template <Rounding How>
Result rounding(const std::vector<Arg>& a, CallContext&) {
  auto x = parseNumber(a[0].term);
  if (!x) return std::nullopt;
  auto r = roundNumber(How, *x);
  if (!r) return std::nullopt;
  return numberTerm(*r);
}

// YEAR ... TZ share one body: the name picks the accessor.
template <const char* Name>
Result accessor(const std::vector<Arg>& a, CallContext&) {
  auto v = parseDateTime(a[0].term);
  if (!v) return std::nullopt;
  return dateTimeAccessor(Name, *v);
}

Builtin negation() {
  Builtin b = predicate<logicalNot>("!", 1, 1, true);
  b.negates = true;
  return b;
}

constexpr char kYear[] = "YEAR", kMonth[] = "MONTH", kDay[] = "DAY", kHours[] = "HOURS",
               kMinutes[] = "MINUTES", kSeconds[] = "SECONDS", kTimezone[] = "TIMEZONE", kTz[] = "TZ";

}  // namespace

std::vector<Builtin> operatorBuiltins() {
  return {
      predicate<equal>("=", 2, 2, true),
      predicate<notEqual>("!=", 2, 2, true),
      predicate<ordered<less>>("<", 2, 2, true),
      predicate<ordered<greater>>(">", 2, 2, true),
      predicate<ordered<lessOrEqual>>("<=", 2, 2, true),
      predicate<ordered<greaterOrEqual>>(">=", 2, 2, true),
      {"+", arithmeticOp<'+'>, 2, 2},
      {"-", arithmeticOp<'-'>, 2, 2},
      {"*", arithmeticOp<'*'>, 2, 2},
      {"/", arithmeticOp<'/'>, 2, 2},
      {"UPLUS", unaryPlus, 1, 1},
      {"UMINUS", unaryMinus, 1, 1},
      negation(),
      {"ABS", rounding<Rounding::Abs>, 1, 1},
      {"CEIL", rounding<Rounding::Ceil>, 1, 1},
      {"FLOOR", rounding<Rounding::Floor>, 1, 1},
      {"ROUND", rounding<Rounding::Round>, 1, 1},
      {kYear, accessor<kYear>, 1, 1},
      {kMonth, accessor<kMonth>, 1, 1},
      {kDay, accessor<kDay>, 1, 1},
      {kHours, accessor<kHours>, 1, 1},
      {kMinutes, accessor<kMinutes>, 1, 1},
      {kSeconds, accessor<kSeconds>, 1, 1},
      {kTimezone, accessor<kTimezone>, 1, 1},
      {kTz, accessor<kTz>, 1, 1},
  };
}

}  // namespace gsparql::engine::expr
