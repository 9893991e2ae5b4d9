#include "engine/physical/filter.h"

#include "engine/physical/row_solution.h"

namespace gsparql::engine {

Filter::Filter(OperatorPtr child, const std::vector<sparql::Expr>& conditions, std::string text, double rows,
               double cost)
    : Operator(child->variables(), rows, cost), child_(std::move(child)), text_(std::move(text)) {
  for (const auto& c : conditions) conditions_.push_back({expr::Expression(c, variables()), TypedComparison::of(c, variables())});
}

void Filter::openImpl(ExecutionContext& context) {
  environment_ = context.environmentFor(variables());
  child_->open(context);
}

std::optional<Table> Filter::nextImpl(ExecutionContext& context) {
  while (auto batch = child_->next(context)) {
    RowSolution solution(*batch, context.terms);
    std::vector<size_t> keep;
    for (size_t r = 0; r < batch->rows; ++r) {
      solution.moveTo(r);
      bool holds = true;
      for (const auto& c : conditions_) {
        if (!holds) break;
        const auto decided = c.typed ? c.typed->decide(*batch, r, context.terms) : std::nullopt;
        holds = decided ? *decided : c.expression.holds(solution, *environment_);
      }
      if (holds) keep.push_back(r);
    }
    if (!keep.empty()) return gatherRows(*batch, keep);
  }
  return std::nullopt;
}

}  // namespace gsparql::engine
