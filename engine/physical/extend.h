#pragma once
// BIND and SELECT expressions (section 18.5, Extend): one more column per
// binding, the expression's value, unbound where it raises an error.
// Consecutive bindings are one operator, evaluated in order on each row, so
// that BNODE("x") gives one blank node per solution across them. A variable
// the input already has gets its column overwritten instead (the parser
// refuses such queries; a plan may still carry one column of that name).
#include <optional>

#include "engine/expr/expression.h"
#include "engine/physical/operator.h"
#include "engine/physical/values_by_key.h"

namespace gsparql::engine {

class RowSolution;

struct ExtendBinding {
  std::string variable;
  sparql::Expr expression;
  std::string text;  // for EXPLAIN
};

class Extend final : public Operator {
 public:
  Extend(OperatorPtr child, const std::vector<ExtendBinding>& bindings, double rows, double cost);
  std::string describe() const override;
  std::vector<const Operator*> children() const override { return {child_.get()}; }
  void readAtMost(uint64_t rows) override { child_->readAtMost(rows); }

 private:
  struct Compiled {
    expr::Expression expression;
    size_t target;  // the column it fills
    std::string text;
  };
  ValueId valueAt(size_t binding, const Table& batch, size_t row, RowSolution& solution, ExecutionContext& context);

  void openImpl(ExecutionContext& context) override;
  std::optional<Table> nextImpl(ExecutionContext& context) override;

  OperatorPtr child_;
  std::vector<Compiled> bindings_;
  std::optional<expr::Environment> environment_;
  // Per binding whose value depends on one variable: the id of its value,
  // so that a BIND over many rows of few terms neither writes nor looks up
  // a term a row.
  std::vector<ValuesByKey<ValueId>> idsByKey_;
};

}  // namespace gsparql::engine
