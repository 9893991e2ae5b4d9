#include "engine/physical/distinct.h"

#include <cstring>

namespace gsparql::engine {

Distinct::Distinct(OperatorPtr child, bool reduced, double rows, double cost)
    : Operator(child->variables(), rows, cost), child_(std::move(child)), reduced_(reduced) {}

void Distinct::openImpl(ExecutionContext& context) {
  seen_.clear();
  child_->open(context);
}

std::optional<Table> Distinct::nextImpl(ExecutionContext& context) {
  std::string key(variables().size() * sizeof(ValueId), '\0');
  while (auto batch = child_->next(context)) {
    std::vector<size_t> keep;
    for (size_t r = 0; r < batch->rows; ++r) {
      for (size_t c = 0; c < batch->width(); ++c) {
        const ValueId v = batch->at(r, c);
        std::memcpy(key.data() + c * sizeof(ValueId), &v, sizeof v);
      }
      if (seen_.insert(key).second) keep.push_back(r);
    }
    if (!keep.empty()) return gatherRows(*batch, keep);
  }
  return std::nullopt;
}

}  // namespace gsparql::engine
