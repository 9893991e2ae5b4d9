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
    // A value of one variable has its id kept by key here (idsByKey_), not its term memoized as well.
    bindings_.push_back(
        {expr::Expression(b.expression, visible, expr::Expression::KeptBy::Caller), *columnOf(b.variable), b.text});
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
  idsByKey_.assign(bindings_.size(), {});
  child_->open(context);
}

// The id of a binding's value on `row`: the id of the variable it passes on
// unchanged, the one it had for the same key, or the id of its term.
ValueId Extend::valueAt(size_t binding, const Table& batch, size_t row, RowSolution& solution,
                        ExecutionContext& context) {
  const expr::Expression& expression = bindings_[binding].expression;
  solution.moveTo(row);
  if (const std::optional<size_t> kept = expression.slotOfValue(solution)) return batch.at(row, *kept);
  const std::optional<size_t> keySlot = expression.keySlot();
  auto make = [&] { return valueOf(expression.evaluate(solution, *environment_), context.terms); };
  return keySlot ? idsByKey_[binding].get(batch.at(row, *keySlot), make) : make();
}

std::optional<Table> Extend::nextImpl(ExecutionContext& context) {
  auto batch = child_->next(context);
  if (!batch) return std::nullopt;
  // BNODE(label): one blank node per label and row, whichever binding asks
  // (the tables made on the first call: most BINDs make no blank nodes).
  std::vector<std::unordered_map<std::string, std::string>> blankNodes;
  size_t row = 0;
  environment_->blankNodeFor = [&](std::string_view label) {
    if (blankNodes.empty()) blankNodes.resize(batch->rows);
    auto [it, added] = blankNodes[row].try_emplace(std::string(label));
    if (added) it->second = environment_->freshBlankNode();
    return it->second;
  };
  RowSolution solution(*batch, context.terms);
  StopCheck stop(context.run.limits);
  for (size_t b = 0; b < bindings_.size(); ++b) {
    const Compiled& binding = bindings_[b];
    std::vector<ValueId> values(batch->rows);
    for (row = 0; row < batch->rows; ++row) {
      stop(static_cast<int64_t>(binding.expression.cost()));
      values[row] = valueAt(b, *batch, row, solution, context);
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
