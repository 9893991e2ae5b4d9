#pragma once
// BIND and SELECT expressions (section 18.5, Extend): one more column, the
// expression's value, unbound where it raises an error. A variable the input
// already has (a GROUP BY key the pattern never binds, assigned in SELECT)
// gets its column overwritten instead.
#include <optional>

#include "engine/expr/expression.h"
#include "engine/physical/operator.h"

namespace gsparql::engine {

class Extend final : public Operator {
 public:
  Extend(OperatorPtr child, const std::string& variable, const sparql::Expr& expression, std::string text,
         double rows, double cost);
  std::string describe() const override { return "Extend ?" + variables()[target_] + " := " + text_; }
  std::vector<const Operator*> children() const override { return {child_.get()}; }

 private:
  void openImpl(ExecutionContext& context) override;
  std::optional<Table> nextImpl(ExecutionContext& context) override;

  OperatorPtr child_;
  expr::Expression expression_;
  std::string text_;
  size_t target_;  // the column the expression fills
  std::optional<expr::Environment> environment_;
};

}  // namespace gsparql::engine
