#pragma once
// A FILTER condition `?v op constant` (or `constant op ?v`), op one of = !=
// < > <= >=, with a numeric or date constant, decided on the value column
// (storage/value_column.h) without decoding the variable's term; and = or
// != with a simple literal, decided on the term's text where the term column
// holds it: an IRI or a blank node is never equal to a literal (RDFterm-
// equal), a simple literal is equal when its text is. Likewise STRSTARTS,
// STRENDS and CONTAINS of the variable and a simple literal: true or false
// on a string literal's text (simple, tagged or xsd:string, 17.4.3.1.1), an
// error (false) on any other term. Rows whose value does not decide it (not a
// number or date, NaN, a tie of inexact values, a literal with an escape or,
// for = and !=, a tag or datatype, a term the query made) go to the general
// evaluator.
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
  enum class Op { Equal, NotEqual, Less, Greater, LessOrEqual, GreaterOrEqual, StartsWith, EndsWith, Contains };
  TypedComparison(size_t column, Op op, rdf::TypedValue constant, std::string text)
      : column_(column), op_(op), constant_(constant), text_(std::move(text)) {}
  static std::optional<TypedComparison> ofStringTest(const sparql::Expr& condition,
                                                     const std::vector<std::string>& variables);
  std::optional<bool> equalsText(const Table& table, size_t row, const TermCodec& terms) const;
  std::optional<bool> testsText(const Table& table, size_t row, const TermCodec& terms) const;

  size_t column_;
  Op op_;
  rdf::TypedValue constant_;
  std::string text_;  // = and !=: a simple literal constant's term, or empty; string tests: its text
};

}  // namespace gsparql::engine
