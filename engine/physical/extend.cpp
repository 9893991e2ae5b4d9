#include "engine/physical/extend.h"

#include <algorithm>
#include <unordered_map>

#include "engine/physical/row_solution.h"

namespace gsparql::engine {
namespace {

std::vector<std::string> withVariables(std::vector<std::string> variables, const std::vector<ExtendBinding>& bindings) {
  for (const auto& b : bindings) {
    if (std::find(variables.begin(), variables.end(), b.variable) == variables.end()) variables.push_back(b.variable);
  }
  return variables;
}

}  // namespace

Extend::Extend(OperatorPtr child, const std::vector<ExtendBinding>& bindings, double rows, double cost)
    : Operator(withVariables(child->variables(), bindings), rows, cost), child_(std::move(child)) {
  std::vector<std::string> visible = child_->variables();
  for (const auto& b : bindings) {
    bindings_.push_back({expr::Expression(b.expression, visible), *columnOf(b.variable), b.text});
    if (std::find(visible.begin(), visible.end(), b.variable) == visible.end()) visible.push_back(b.variable);
  }
}

std::string Extend::describe() const {
  std::string text;
  for (const auto& b : bindings_) text += (text.empty() ? "?" : ", ?") + variables()[b.target] + " := " + b.text;
  return "Extend " + text;
}

void Extend::openImpl(ExecutionContext& context) {
  environment_ = context.environmentFor(variables());
  child_->open(context);
}

std::optional<Table> Extend::nextImpl(ExecutionContext& context) {
  auto batch = child_->next(context);
  if (!batch) return std::nullopt;
  // BNODE(label): one blank node per label and row, whichever binding asks.
  std::vector<std::unordered_map<std::string, std::string>> blankNodes(batch->rows);
  size_t row = 0;
  environment_->blankNodeFor = [&](std::string_view label) {
    auto [it, added] = blankNodes[row].try_emplace(std::string(label));
    if (added) it->second = environment_->freshBlankNode();
    return it->second;
  };
  RowSolution solution(*batch, context.terms);
  StopCheck stop(context.run.limits);
  for (const Compiled& binding : bindings_) {
    std::vector<ValueId> values(batch->rows);
    for (row = 0; row < batch->rows; ++row) {
      stop(static_cast<int64_t>(binding.expression.cost()));
      solution.moveTo(row);
      const std::optional<size_t> kept = binding.expression.slotOfValue(solution);
      values[row] = kept ? batch->at(row, *kept) : valueOf(binding.expression.evaluate(solution, *environment_), context.terms);
    }
    if (binding.target < batch->width()) {
      batch->columns[binding.target] = Column(std::move(values));
    } else {
      batch->columns.emplace_back(std::move(values));
    }
  }
  environment_->blankNodeFor = nullptr;
  return batch;
}

}  // namespace gsparql::engine
