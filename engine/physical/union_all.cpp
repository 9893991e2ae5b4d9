#include "engine/physical/union_all.h"

#include "engine/physical/compatible_rows.h"

namespace gsparql::engine {

UnionAll::UnionAll(OperatorPtr left, OperatorPtr right, double rows, double cost)
    : Operator(mergedVariables(left->variables(), right->variables()), rows, cost), left_(std::move(left)),
      right_(std::move(right)) {}

void UnionAll::openImpl(ExecutionContext& context) {
  left_->open(context);
  onRight_ = false;
}

Table UnionAll::widen(const Table& batch, const Operator& from) const {
  Table out(variables().size());
  out.rows = batch.rows;
  for (size_t c = 0; c < variables().size(); ++c) {
    if (auto source = from.columnOf(variables()[c])) {
      out.columns[c] = batch.columns[*source];
    } else {
      out.columns[c].assign(batch.rows, kUndefined);
    }
  }
  return out;
}

std::optional<Table> UnionAll::nextImpl(ExecutionContext& context) {
  if (!onRight_) {
    if (auto batch = left_->next(context)) return widen(*batch, *left_);
    onRight_ = true;
    right_->open(context);
  }
  if (auto batch = right_->next(context)) return widen(*batch, *right_);
  return std::nullopt;
}

}  // namespace gsparql::engine
