#include "engine/physical/union_all.h"

#include <stdexcept>
#include <utility>

#include "engine/physical/compatible_rows.h"

namespace gsparql::engine {
namespace {

std::vector<std::string> unitedVariables(const std::vector<OperatorPtr>& inputs) {
  if (inputs.empty()) throw std::invalid_argument("a union needs an input");
  std::vector<std::string> variables = inputs.front()->variables();
  for (size_t i = 1; i < inputs.size(); ++i) variables = mergedVariables(variables, inputs[i]->variables());
  return variables;
}

double sum(const std::vector<OperatorPtr>& inputs, double (Operator::*estimate)() const) {
  double total = 0;
  for (const OperatorPtr& input : inputs) total += (*input.*estimate)();
  return total;
}

}  // namespace

UnionAll::UnionAll(std::vector<OperatorPtr> inputs)
    : Operator(unitedVariables(inputs), sum(inputs, &Operator::estimatedRows), sum(inputs, &Operator::estimatedCost)),
      inputs_(std::move(inputs)) {
  for (const OperatorPtr& input : inputs_) {
    std::vector<std::optional<size_t>>& sources = sources_.emplace_back();
    for (const std::string& variable : variables()) sources.push_back(input->columnOf(variable));
  }
}

std::vector<OperatorPtr> UnionAll::inputsOf(OperatorPtr union_) {
  std::vector<OperatorPtr> inputs;
  if (auto* u = dynamic_cast<UnionAll*>(union_.get())) {
    inputs = std::move(u->inputs_);
  } else {
    inputs.push_back(std::move(union_));
  }
  return inputs;
}

std::vector<const Operator*> UnionAll::children() const {
  std::vector<const Operator*> out;
  for (const OperatorPtr& input : inputs_) out.push_back(input.get());
  return out;
}

void UnionAll::openImpl(ExecutionContext& context) {
  current_ = 0;
  inputs_.front()->open(context);
}

Table UnionAll::widen(Table batch, size_t input) const {
  const std::vector<std::optional<size_t>>& sources = sources_[input];
  bool same = batch.width() == sources.size();
  for (size_t c = 0; same && c < sources.size(); ++c) same = sources[c] == c;
  if (same) return batch;
  Table out(sources.size());
  out.rows = batch.rows;
  for (size_t c = 0; c < sources.size(); ++c) {
    if (sources[c]) {
      out.columns[c] = std::move(batch.columns[*sources[c]]);
    } else {
      out.columns[c].assign(batch.rows, kUndefined);
    }
  }
  return out;
}

std::optional<Table> UnionAll::nextImpl(ExecutionContext& context) {
  while (current_ < inputs_.size()) {
    if (auto batch = inputs_[current_]->next(context)) return widen(std::move(*batch), current_);
    if (++current_ < inputs_.size()) inputs_[current_]->open(context);
  }
  return std::nullopt;
}

}  // namespace gsparql::engine
