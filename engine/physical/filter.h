#pragma once
// FILTER (section 18.5, Filter): the rows on which every condition's
// effective boolean value is true (an error counts as false).
#include <optional>

#include "engine/expr/expression.h"
#include "engine/physical/operator.h"

namespace gsparql::engine {

class Filter final : public Operator {
 public:
  Filter(OperatorPtr child, const std::vector<sparql::Expr>& conditions, std::string text, double rows, double cost);
  std::string describe() const override { return "Filter " + text_; }
  std::vector<const Operator*> children() const override { return {child_.get()}; }

 private:
  void openImpl(ExecutionContext& context) override;
  std::optional<Table> nextImpl(ExecutionContext& context) override;

  OperatorPtr child_;
  std::vector<expr::Expression> conditions_;
  std::string text_;
  std::optional<expr::Environment> environment_;
};

}  // namespace gsparql::engine
