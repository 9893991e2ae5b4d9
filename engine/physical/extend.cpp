#include "engine/physical/extend.h"

#include <algorithm>

#include "engine/physical/row_solution.h"

namespace gsparql::engine {
namespace {

std::vector<std::string> withVariable(std::vector<std::string> variables, const std::string& variable) {
  if (std::find(variables.begin(), variables.end(), variable) == variables.end()) variables.push_back(variable);
  return variables;
}

}  // namespace

Extend::Extend(OperatorPtr child, const std::string& variable, const sparql::Expr& expression, std::string text,
               double rows, double cost)
    : Operator(withVariable(child->variables(), variable), rows, cost), child_(std::move(child)),
      expression_(expression, child_->variables()), text_(std::move(text)), target_(*columnOf(variable)) {}

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
  if (target_ < batch->width()) {
    batch->columns[target_] = std::move(values);
  } else {
    batch->columns.push_back(std::move(values));
  }
  return batch;
}

}  // namespace gsparql::engine
