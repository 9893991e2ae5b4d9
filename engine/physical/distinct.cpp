#include "engine/physical/distinct.h"

namespace gsparql::engine {

Distinct::Distinct(OperatorPtr child, bool reduced, double rows, double cost)
    : Operator(child->variables(), rows, cost),
      child_(std::move(child)),
      reduced_(reduced),
      seen_(variables().size()) {}

void Distinct::openImpl(ExecutionContext& context) {
  seen_.clear();
  child_->open(context);
}

std::optional<Table> Distinct::nextImpl(ExecutionContext& context) {
  std::vector<ValueId> row(variables().size());
  while (auto batch = child_->next(context)) {
    std::vector<size_t> keep;
    for (size_t r = 0; r < batch->rows; ++r) {
      for (size_t c = 0; c < batch->width(); ++c) row[c] = batch->at(r, c);
      if (seen_.insert(row)) keep.push_back(r);
    }
    context.run.limits.checkMemory(seen_.bytes(), "the rows seen by " + describe());
    if (!keep.empty()) return gatherRows(*batch, keep);
  }
  return std::nullopt;
}

}  // namespace gsparql::engine
