#include "engine/physical/typed_comparison.h"

#include <algorithm>

#include "engine/value/typed_order.h"

namespace gsparql::engine {
namespace {

bool isVariable(const sparql::Expr& e) {
  return e.kind == sparql::Expr::Kind::Term && e.term.kind == sparql::Term::Kind::Variable;
}

bool isConstant(const sparql::Expr& e) { return e.kind == sparql::Expr::Kind::Term && e.term.isConstant(); }

// A simple literal whose term is its text in quotes (no tag, datatype or escape).
bool isPlainSimpleLiteral(std::string_view term) {
  return term.size() >= 2 && term.front() == '"' && term.back() == '"' && term.find('\\') == std::string_view::npos;
}

bool isStringTestConstant(const sparql::Expr& e) { return isConstant(e) && isPlainSimpleLiteral(e.term.value); }

constexpr std::string_view kXsdString = "^^<http://www.w3.org/2001/XMLSchema#string>";

}  // namespace

std::optional<TypedComparison> TypedComparison::ofStringTest(const sparql::Expr& condition,
                                                             const std::vector<std::string>& variables) {
  static const std::vector<std::pair<std::string, Op>> kTests = {
      {"STRSTARTS", Op::StartsWith}, {"STRENDS", Op::EndsWith}, {"CONTAINS", Op::Contains}};
  auto test = std::find_if(kTests.begin(), kTests.end(), [&](const auto& t) { return t.first == condition.name; });
  if (test == kTests.end() || !isVariable(condition.args[0]) || !isStringTestConstant(condition.args[1])) {
    return std::nullopt;
  }
  auto column = std::find(variables.begin(), variables.end(), condition.args[0].term.value);
  if (column == variables.end()) return std::nullopt;
  const std::string& term = condition.args[1].term.value;
  return TypedComparison(static_cast<size_t>(column - variables.begin()), test->second, {},
                         term.substr(1, term.size() - 2));
}

std::optional<TypedComparison> TypedComparison::of(const sparql::Expr& condition,
                                                   const std::vector<std::string>& variables) {
  static const std::vector<std::pair<std::string, Op>> kOps = {
      {"=", Op::Equal}, {"!=", Op::NotEqual}, {"<", Op::Less}, {">", Op::Greater},
      {"<=", Op::LessOrEqual}, {">=", Op::GreaterOrEqual}};
  if (condition.kind != sparql::Expr::Kind::Call || condition.args.size() != 2) return std::nullopt;
  auto op = std::find_if(kOps.begin(), kOps.end(), [&](const auto& o) { return o.first == condition.name; });
  if (op == kOps.end()) return ofStringTest(condition, variables);
  const bool variableFirst = isVariable(condition.args[0]) && isConstant(condition.args[1]);
  if (!variableFirst && !(isConstant(condition.args[0]) && isVariable(condition.args[1]))) return std::nullopt;
  const sparql::Expr& variable = condition.args[variableFirst ? 0 : 1];
  const std::string& term = condition.args[variableFirst ? 1 : 0].term.value;
  const rdf::TypedValue constant = rdf::typedValueOf(term);
  const bool equality = op->second == Op::Equal || op->second == Op::NotEqual;
  std::string text = equality && isPlainSimpleLiteral(term) ? term : std::string();
  auto column = std::find(variables.begin(), variables.end(), variable.term.value);
  if ((constant.kind == rdf::TypedValue::Kind::None && text.empty()) || column == variables.end()) return std::nullopt;
  Op compare = op->second;
  if (!variableFirst) {  // c < ?v is ?v > c
    static const Op kMirror[] = {Op::Equal, Op::NotEqual, Op::Greater, Op::Less, Op::GreaterOrEqual, Op::LessOrEqual};
    compare = kMirror[static_cast<int>(compare)];
  }
  return TypedComparison(static_cast<size_t>(column - variables.begin()), compare, constant, std::move(text));
}

std::optional<bool> TypedComparison::equalsText(const Table& table, size_t row, const TermCodec& terms) const {
  const std::optional<std::string_view> term = terms.termInPlace(table.at(row, column_));
  if (!term || term->empty()) return std::nullopt;
  if (term->front() == '<' || term->starts_with("_:")) return false;  // an IRI, a triple term or a blank node
  if (!isPlainSimpleLiteral(*term)) return std::nullopt;
  return *term == text_;
}

// Without an escape, a literal's text ends at its second quote; what
// follows says whether it is a string literal.
std::optional<bool> TypedComparison::testsText(const Table& table, size_t row, const TermCodec& terms) const {
  const std::optional<std::string_view> term = terms.termInPlace(table.at(row, column_));
  if (!term || term->empty()) return std::nullopt;
  if (term->front() != '"') return false;  // an IRI, a triple term or a blank node: an error
  if (term->find('\\') != std::string_view::npos) return std::nullopt;
  const size_t close = term->find('"', 1);
  if (close == std::string_view::npos) return std::nullopt;
  const std::string_view rest = term->substr(close + 1);
  if (!rest.empty() && rest.front() != '@' && rest != kXsdString) return false;  // not a string: an error
  const std::string_view text = term->substr(1, close - 1);
  switch (op_) {
    case Op::StartsWith: return text.starts_with(text_);
    case Op::EndsWith: return text.ends_with(text_);
    default: return text.find(text_) != std::string_view::npos;
  }
}

std::optional<bool> TypedComparison::decide(const Table& table, size_t row, const TermCodec& terms) const {
  if (op_ == Op::StartsWith || op_ == Op::EndsWith || op_ == Op::Contains) return testsText(table, row, terms);
  if (!text_.empty()) {
    const std::optional<bool> equal = equalsText(table, row, terms);
    if (!equal) return std::nullopt;
    return *equal == (op_ == Op::Equal);
  }
  const rdf::TypedValue* value = terms.typedValue(table.at(row, column_));
  if (value == nullptr) return std::nullopt;
  const std::optional<int> order = compareTypedValues(*value, constant_);
  if (!order) return std::nullopt;
  switch (op_) {
    case Op::Equal: return *order == 0;
    case Op::NotEqual: return *order != 0;
    case Op::Less: return *order < 0;
    case Op::Greater: return *order > 0;
    case Op::LessOrEqual: return *order <= 0;
    case Op::GreaterOrEqual: return *order >= 0;
    default: break;
  }
  return std::nullopt;
}

}  // namespace gsparql::engine
