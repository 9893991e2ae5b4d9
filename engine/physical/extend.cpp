#include "engine/physical/extend.h"

#include "engine/physical/row_solution.h"

namespace gsparql::engine {
namespace {

std::vector<std::string> withVariable(std::vector<std::string> variables, std::string variable) {
  variables.push_back(std::move(variable));
  return variables;
}

}  // namespace

Extend::Extend(OperatorPtr child, std::string variable, const sparql::Expr& expression, std::string text,
               double rows, double cost)
    : Operator(withVariable(child->variables(), std::move(variable)), rows, cost), child_(std::move(child)),
      expression_(expression, child_->variables()), text_(std::move(text)) {}

void Extend::openImpl(ExecutionContext& context) {
  environment_ = context.environmentFor(child_->variables());
  child_->open(context);
}

std::optional<Table> Extend::nextImpl(ExecutionContext& context) {
  auto batch = child_->next(context);
  if (!batch) return std::nullopt;
  RowSolution solution(*batch, context.terms);
  std::vector<ValueId> values(batch->rows);
  for (size_t r = 0; r < batch->rows; ++r) {
    solution.moveTo(r);
    values[r] = valueOf(expression_.evaluate(solution, *environment_), context.terms);
  }
  batch->columns.push_back(std::move(values));
  return batch;
}

}  // namespace gsparql::engine
