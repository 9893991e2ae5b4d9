#pragma once
// BIND and SELECT expressions (section 18.5, Extend): one more column, the
// expression's value, unbound where it raises an error.
#include <optional>

#include "engine/expr/expression.h"
#include "engine/physical/operator.h"

namespace gsparql::engine {

class Extend final : public Operator {
 public:
  Extend(OperatorPtr child, std::string variable, const sparql::Expr& expression, std::string text, double rows,
         double cost);
  std::string describe() const override { return "Extend ?" + variables().back() + " := " + text_; }
  std::vector<const Operator*> children() const override { return {child_.get()}; }

 private:
  void openImpl(ExecutionContext& context) override;
  std::optional<Table> nextImpl(ExecutionContext& context) override;

  OperatorPtr child_;
  expr::Expression expression_;
  std::string text_;
  std::optional<expr::Environment> environment_;
};

}  // namespace gsparql::engine
