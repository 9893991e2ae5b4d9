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

}  // namespace

std::optional<TypedComparison> TypedComparison::of(const sparql::Expr& condition,
                                                   const std::vector<std::string>& variables) {
  static const std::vector<std::pair<std::string, Op>> kOps = {
      {"=", Op::Equal}, {"!=", Op::NotEqual}, {"<", Op::Less}, {">", Op::Greater},
      {"<=", Op::LessOrEqual}, {">=", Op::GreaterOrEqual}};
  if (condition.kind != sparql::Expr::Kind::Call || condition.args.size() != 2) return std::nullopt;
  auto op = std::find_if(kOps.begin(), kOps.end(), [&](const auto& o) { return o.first == condition.name; });
  if (op == kOps.end()) return std::nullopt;
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

std::optional<bool> TypedComparison::decide(const Table& table, size_t row, const TermCodec& terms) const {
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
  }
  return std::nullopt;
}

}  // namespace gsparql::engine
