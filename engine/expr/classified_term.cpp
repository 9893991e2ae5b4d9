#include "engine/expr/classified_term.h"

#include "engine/expr/values.h"

namespace gsparql::engine::expr {
namespace {

TermGroup untypedGroup(const rdf::TermParts& parts) {
  switch (parts.kind) {
    case rdf::TermKind::Blank: return TermGroup::Blank;
    case rdf::TermKind::Iri: return TermGroup::Iri;
    case rdf::TermKind::Triple: return TermGroup::Other;
    case rdf::TermKind::Literal: break;
  }
  if (!parts.language.empty()) return TermGroup::LangString;
  return parts.datatype.empty() ? TermGroup::String : TermGroup::Other;
}

int threeWay(std::string_view a, std::string_view b) {
  const int c = a.compare(b);
  return c < 0 ? -1 : c > 0;
}

}  // namespace

ClassifiedTerm::ClassifiedTerm(std::string_view text) : parts_(splitter_.split(text)), group_(untypedGroup(parts_)) {
  if (group_ == TermGroup::Other && !xsdLocal(parts_.datatype).empty()) group_ = typedGroup();
}

// Numbers, booleans, dates and dateTimes with a valid lexical form; an
// ill-typed one ("forty"^^xsd:integer) stays Other.
TermGroup ClassifiedTerm::typedGroup() {
  thread_local TermValue typed;  // its strings' buffers reused: ORDER BY classifies twice per comparison
  typed.value = parts_.value;
  typed.datatype = parts_.datatype;
  if ((number_ = parseNumber(typed))) return TermGroup::Numeric;
  if (xsdLocal(typed.datatype) == "boolean" && (boolean_ = parseBoolean(typed.value))) return TermGroup::Boolean;
  if ((dateTime_ = parseDateTime(typed))) return dateTime_->hasTime ? TermGroup::DateTime : TermGroup::Date;
  return TermGroup::Other;
}

std::optional<int> compareInGroup(const ClassifiedTerm& a, const ClassifiedTerm& b) {
  switch (a.group()) {
    case TermGroup::Numeric: return compareNumbers(*a.number(), *b.number());
    case TermGroup::Boolean: return int(*a.boolean()) - int(*b.boolean());
    case TermGroup::DateTime:
    case TermGroup::Date: return compareDateTimes(*a.dateTime(), *b.dateTime());
    case TermGroup::String: return threeWay(a.parts().value, b.parts().value);
    default: return std::nullopt;
  }
}

}  // namespace gsparql::engine::expr
