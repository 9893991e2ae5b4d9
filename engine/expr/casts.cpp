// XSD cast functions (section 17.5): xsd:string, xsd:boolean, the numeric
// types (derived integer types included) and xsd:dateTime / xsd:date.
// A lexical form already valid for the target type is kept as written, as
// Jena does; other results take the canonical form of the converted value.
#include "engine/expr/builtins.h"
#include "engine/expr/datetime.h"
#include "engine/expr/numeric.h"
#include "engine/expr/values.h"

namespace gsparql::engine::expr {
namespace {

enum class Source { String, Numeric, Boolean, DateTime, Other };

Source sourceOf(const TermValue& t) {
  if (t.isSimple()) return Source::String;
  if (!t.isLiteral() || !t.language.empty()) return Source::Other;
  if (parseNumber(t)) return Source::Numeric;
  if (xsdLocal(t.datatype) == "boolean" && parseBoolean(t.value)) return Source::Boolean;
  if (parseDateTime(t)) return Source::DateTime;
  return Source::Other;
}

Result toString(const Arg& a) {
  const TermValue& t = a.term;
  if (t.kind == rdf::TermKind::Iri) return stringTerm(t.value);
  Source source = sourceOf(t);
  if (source == Source::Other) return std::nullopt;
  if (source == Source::Numeric) return stringTerm(stringLexical(*parseNumber(t)));
  if (source == Source::Boolean) return stringTerm(*parseBoolean(t.value) ? "true" : "false");
  return stringTerm(t.value);
}

Result toBoolean(const Arg& a) {
  const TermValue& t = a.term;
  switch (sourceOf(t)) {
    case Source::String:
    case Source::Boolean: {
      auto b = parseBoolean(t.value);
      if (!b) return std::nullopt;
      return booleanTerm(*b);
    }
    case Source::Numeric: {
      Number n = *parseNumber(t);
      bool zeroOrNaN = n.type <= NumType::Decimal ? n.exact.mantissa == 0 : !(n.approx != 0);
      return booleanTerm(!zeroOrNaN);
    }
    default: return std::nullopt;
  }
}

// Casts to a numeric type; `datatype` is the target's local name.
Result toNumber(const Arg& a, std::string_view local) {
  const TermValue& t = a.term;
  NumType type = local == "double" ? NumType::Double : local == "float"   ? NumType::Float
                                                     : local == "decimal" ? NumType::Decimal
                                                                          : NumType::Integer;
  TermValue result{rdf::TermKind::Literal, t.value, {}, xsd(local)};
  Source source = sourceOf(t);
  if (source == Source::Boolean) {
    result.value = canonicalLexical(*convertNumber(Number::integer(*parseBoolean(t.value)), type));
  } else if (source == Source::Numeric && (!parseNumber(result) || parseNumber(t)->type > type)) {
    // A widening cast keeps the lexical form when the target accepts it
    // (xsd:double(3) is "3", as Jena); a narrowing one writes the new value.
    auto converted = convertNumber(*parseNumber(t), type);
    if (!converted) return std::nullopt;
    result.value = canonicalLexical(*converted);
  } else if (source != Source::String && source != Source::Numeric) {
    return std::nullopt;
  }
  // Also checks the range of derived integer types.
  if (!parseNumber(result)) return std::nullopt;
  return rdf::literalTerm(result.value, {}, result.datatype);
}

Result toDateTime(const Arg& a, bool withTime) {
  const TermValue& t = a.term;
  std::optional<DateTime> value;
  Source source = sourceOf(t);
  if (source == Source::String) {
    value = parseDateTime(TermValue{rdf::TermKind::Literal, t.value, {}, xsd(withTime ? "dateTime" : "date")});
    if (value) return rdf::literalTerm(t.value, {}, xsd(withTime ? "dateTime" : "date"));
  } else if (source == Source::DateTime) {
    value = parseDateTime(t);
  }
  if (!value) return std::nullopt;
  if (!withTime) {
    value->hasTime = false;
  } else if (!value->hasTime) {
    value->hasTime = true;
    value->hour = value->minute = 0;
    value->seconds = {};
  }
  return rdf::literalTerm(dateTimeLexical(*value), {}, xsd(withTime ? "dateTime" : "date"));
}

template <const char* Local>
Result cast(const std::vector<Arg>& a, CallContext&) {
  std::string_view local = Local;
  if (local == "string") return toString(a[0]);
  if (local == "boolean") return toBoolean(a[0]);
  if (local == "dateTime" || local == "date") return toDateTime(a[0], local == "dateTime");
  return toNumber(a[0], local);
}

#define GSPARQL_CAST(local)                                 \
  constexpr char k_##local[] = #local;                      \
  constexpr char kIri_##local[] = "<http://www.w3.org/2001/XMLSchema#" #local ">";

GSPARQL_CAST(string)
GSPARQL_CAST(boolean)
GSPARQL_CAST(integer)
GSPARQL_CAST(decimal)
GSPARQL_CAST(float)
GSPARQL_CAST(double)
GSPARQL_CAST(dateTime)
GSPARQL_CAST(date)
GSPARQL_CAST(int)
GSPARQL_CAST(long)
GSPARQL_CAST(short)
GSPARQL_CAST(byte)
GSPARQL_CAST(nonNegativeInteger)
GSPARQL_CAST(nonPositiveInteger)
GSPARQL_CAST(positiveInteger)
GSPARQL_CAST(negativeInteger)
GSPARQL_CAST(unsignedLong)
GSPARQL_CAST(unsignedInt)
GSPARQL_CAST(unsignedShort)
GSPARQL_CAST(unsignedByte)
#undef GSPARQL_CAST

}  // namespace

std::vector<Builtin> castBuiltins() {
#define GSPARQL_CAST(local) {kIri_##local, cast<k_##local>, 1, 1}
  return {GSPARQL_CAST(string),          GSPARQL_CAST(boolean),
          GSPARQL_CAST(integer),         GSPARQL_CAST(decimal),
          GSPARQL_CAST(float),           GSPARQL_CAST(double),
          GSPARQL_CAST(dateTime),        GSPARQL_CAST(date),
          GSPARQL_CAST(int),             GSPARQL_CAST(long),
          GSPARQL_CAST(short),           GSPARQL_CAST(byte),
          GSPARQL_CAST(nonNegativeInteger), GSPARQL_CAST(nonPositiveInteger),
          GSPARQL_CAST(positiveInteger), GSPARQL_CAST(negativeInteger),
          GSPARQL_CAST(unsignedLong),    GSPARQL_CAST(unsignedInt),
          GSPARQL_CAST(unsignedShort),   GSPARQL_CAST(unsignedByte)};
#undef GSPARQL_CAST
}

}  // namespace gsparql::engine::expr
