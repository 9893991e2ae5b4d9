#pragma once
// A FILTER condition `?v op constant` (or `constant op ?v`), op one of = !=
// < > <= >=, with a numeric or date constant, decided on the value column
// (storage/value_column.h) without decoding the variable's term. Rows whose
// value does not decide it (not a number or date, NaN, a tie of inexact
// values, a term the query made) go to the general evaluator.
#include <optional>
#include <string>
#include <vector>

#include "engine/physical/table.h"
#include "engine/value/term_codec.h"
#include "parser/algebra.h"
#include "rdf/typed_value.h"

namespace gsparql::engine {

class TypedComparison {
 public:
  // nullopt when `condition` has not that shape.
  static std::optional<TypedComparison> of(const sparql::Expr& condition, const std::vector<std::string>& variables);
  // Whether the condition holds on `row`; nullopt when the values cannot tell.
  std::optional<bool> decide(const Table& table, size_t row, const TermCodec& terms) const;

 private:
  enum class Op { Equal, NotEqual, Less, Greater, LessOrEqual, GreaterOrEqual };
  TypedComparison(size_t column, Op op, rdf::TypedValue constant) : column_(column), op_(op), constant_(constant) {}

  size_t column_;
  Op op_;
  rdf::TypedValue constant_;
};

}  // namespace gsparql::engine
