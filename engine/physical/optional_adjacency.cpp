#include "engine/physical/optional_adjacency.h"

namespace gsparql::engine {
namespace {

std::vector<std::string> withVariable(std::vector<std::string> variables, const std::string& added) {
  variables.push_back(added);
  return variables;
}

}  // namespace

OptionalAdjacency::OptionalAdjacency(OperatorPtr input, const std::string& key, const std::string& added,
                                     const PredicateAdjacency* adjacency, double rows, double cost)
    : Operator(withVariable(input->variables(), added), rows, cost), input_(std::move(input)), key_(key),
      keyColumn_(input_->columnOf(key).value()), adjacency_(adjacency) {}

std::string OptionalAdjacency::describe() const {
  return "LeftJoin (OPTIONAL) on ?" + key_ + " by adjacency, ?" + variables().back();
}

void OptionalAdjacency::match(size_t row, ValueId key, Matches& matches) const {
  if (!isBound(key)) return matchEveryEdge(row, matches);
  // A term of the data is a vertex; any other (computed, or a predicate only) has no edge.
  const std::span<const uint32_t> neighbours = adjacency_ != nullptr && spaceOf(key) == ValueSpace::Vertex
                                                   ? adjacency_->neighbours(indexOf(key))
                                                   : std::span<const uint32_t>{};
  for (const uint32_t n : neighbours) {
    matches.rows.push_back(row);
    matches.keys.push_back(key);
    matches.added.push_back(makeValueId(ValueSpace::Vertex, n));
  }
  if (!neighbours.empty()) return;
  matches.rows.push_back(row);
  matches.keys.push_back(key);
  matches.added.push_back(kUndefined);
}

// An unbound ?k: every edge is compatible, and binds ?k.
void OptionalAdjacency::matchEveryEdge(size_t row, Matches& matches) const {
  const std::span<const uint32_t> keys = adjacency_ != nullptr ? adjacency_->keys() : std::span<const uint32_t>{};
  for (size_t k = 0; k < keys.size(); ++k) {
    for (const uint32_t n : adjacency_->neighboursAt(k)) {
      matches.rows.push_back(row);
      matches.keys.push_back(makeValueId(ValueSpace::Vertex, keys[k]));
      matches.added.push_back(makeValueId(ValueSpace::Vertex, n));
    }
  }
  matches.keysChanged = matches.keysChanged || !keys.empty();
  if (!keys.empty()) return;
  matches.rows.push_back(row);
  matches.keys.push_back(kUndefined);
  matches.added.push_back(kUndefined);
}

std::optional<Table> OptionalAdjacency::nextImpl(ExecutionContext& context) {
  StopCheck stop(context.run.limits);
  auto batch = input_->next(context);
  if (!batch) return std::nullopt;
  Matches matches;
  matches.rows.reserve(batch->rows);
  for (size_t r = 0; r < batch->rows; ++r) {
    match(r, batch->at(r, keyColumn_), matches);
    stop(1);
  }
  Table out = gatherRows(*batch, matches.rows);
  if (matches.keysChanged) out.columns[keyColumn_] = Column(std::move(matches.keys));
  out.columns.emplace_back(std::move(matches.added));
  return out;
}

}  // namespace gsparql::engine
