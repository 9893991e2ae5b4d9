#pragma once
// FILTER (section 18.5, Filter): the rows on which every condition's
// effective boolean value is true (an error counts as false). Comparisons of
// a variable with a number or date read the value column instead of
// decoding terms (TypedComparison).
#include <optional>

#include "engine/expr/expression.h"
#include "engine/physical/operator.h"
#include "engine/physical/typed_comparison.h"

namespace gsparql::engine {

class Filter final : public Operator {
 public:
  Filter(OperatorPtr child, const std::vector<sparql::Expr>& conditions, std::string text, double rows, double cost);
  std::string describe() const override { return "Filter " + text_; }
  std::vector<const Operator*> children() const override { return {child_.get()}; }

 private:
  void openImpl(ExecutionContext& context) override;
  std::optional<Table> nextImpl(ExecutionContext& context) override;

  struct Condition {
    expr::Expression expression;
    std::optional<TypedComparison> typed;  // decides most rows without decoding
  };

  OperatorPtr child_;
  std::vector<Condition> conditions_;
  std::string text_;
  std::optional<expr::Environment> environment_;
};

}  // namespace gsparql::engine
