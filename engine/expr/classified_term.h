#pragma once
// A term split into its parts and sorted into the group whose values
// SPARQL's operators compare (section 17.3): the one classification behind
// `=` and `<` (values.h) and ORDER BY's order of terms (term_order.h).
#include <optional>
#include <string_view>

#include "engine/expr/datetime.h"
#include "engine/expr/numeric.h"
#include "rdf/term_parts.h"

namespace gsparql::engine::expr {

// In ORDER BY's order (docs/engine.md, "The order of terms").
enum class TermGroup { Blank, Iri, Numeric, Boolean, DateTime, Date, String, LangString, Other };

// The parts are views into the term's text (or, for a term with escapes,
// into this object): not copyable, and valid while the text is. Only typed
// literals of the XSD namespace are parsed; IRIs, blank nodes and strings
// cost no allocation.
class ClassifiedTerm {
 public:
  explicit ClassifiedTerm(std::string_view text);
  ClassifiedTerm(const ClassifiedTerm&) = delete;
  ClassifiedTerm& operator=(const ClassifiedTerm&) = delete;

  const rdf::TermParts& parts() const { return parts_; }
  TermGroup group() const { return group_; }
  const std::optional<Number>& number() const { return number_; }
  const std::optional<bool>& boolean() const { return boolean_; }
  const std::optional<DateTime>& dateTime() const { return dateTime_; }

 private:
  TermGroup typedGroup();

  rdf::TermSplitter splitter_;
  const rdf::TermParts& parts_;
  TermGroup group_;
  std::optional<Number> number_;
  std::optional<bool> boolean_;
  std::optional<DateTime> dateTime_;
};

// Two terms of one group compared by value, as `<` does: nullopt where the
// group has no such order (IRIs, blank nodes, language-tagged and unknown
// literals), for NaN and for dateTimes that a missing timezone leaves unordered.
std::optional<int> compareInGroup(const ClassifiedTerm& a, const ClassifiedTerm& b);

}  // namespace gsparql::engine::expr
