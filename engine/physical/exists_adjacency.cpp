#include "engine/physical/exists_adjacency.h"

namespace gsparql::engine {

ExistsAdjacency::ExistsAdjacency(OperatorPtr input, const std::string& key, const PredicateAdjacency* adjacency,
                                 AdjacencyTest test, double rows, double cost)
    : Operator(input->variables(), rows, cost), input_(std::move(input)), key_(key),
      keyColumn_(input_->columnOf(key).value()), adjacency_(adjacency), test_(test) {}

std::string ExistsAdjacency::describe() const {
  const char* what = test_ == AdjacencyTest::Exists      ? "SemiJoin (EXISTS)"
                     : test_ == AdjacencyTest::NotExists ? "AntiJoin (NOT EXISTS)"
                                                         : "AntiJoin (MINUS)";
  return std::string(what) + " on ?" + key_ + " by adjacency";
}

bool ExistsAdjacency::matches(ValueId id) const {
  if (adjacency_ == nullptr) return false;
  if (!isBound(id)) return test_ != AdjacencyTest::Minus && adjacency_->keyCount() != 0;
  // A term of the data is a vertex; any other (computed, or a predicate only) has no edge.
  return spaceOf(id) == ValueSpace::Vertex && !adjacency_->neighbours(indexOf(id)).empty();
}

std::optional<Table> ExistsAdjacency::nextImpl(ExecutionContext& context) {
  StopCheck stop(context.run.limits);
  while (auto batch = input_->next(context)) {
    std::vector<size_t> keep;
    for (size_t r = 0; r < batch->rows; ++r) {
      if (matches(batch->at(r, keyColumn_)) == (test_ == AdjacencyTest::Exists)) keep.push_back(r);
    }
    stop(static_cast<int64_t>(batch->rows));
    if (!keep.empty()) return gatherRows(*batch, keep);
  }
  return std::nullopt;
}

}  // namespace gsparql::engine
