#include "engine/physical/optional_adjacency.h"

#include "engine/physical/row_chunks.h"

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

// The matches of rows [begin, end), checking for a stop as they grow.
void OptionalAdjacency::matchRows(const Table& batch, size_t begin, size_t end, Matches& matches,
                                  ExecutionContext& context) const {
  StopCheck stop(context.run.limits);
  matches.rows.reserve(end - begin);
  for (size_t r = begin; r < end; ++r) {
    const size_t before = matches.rows.size();
    match(r, batch.at(r, keyColumn_), matches);
    stop(static_cast<int64_t>(matches.rows.size() - before));
  }
}

// A large batch's rows matched in chunks on the query's threads, put
// together in row order (row_chunks.h).
std::optional<Table> OptionalAdjacency::nextImpl(ExecutionContext& context) {
  auto batch = input_->next(context);
  if (!batch) return std::nullopt;
  std::vector<Matches> chunks(worthSplitting(batch->rows) ? (batch->rows + kRowsPerChunk - 1) / kRowsPerChunk : 1);
  if (chunks.size() == 1) {
    matchRows(*batch, 0, batch->rows, chunks[0], context);
  } else {
    forEachChunk(batch->rows, [&](size_t begin, size_t end, size_t) {
      matchRows(*batch, begin, end, chunks[begin / kRowsPerChunk], context);
    });
  }
  Matches all = std::move(chunks[0]);
  for (size_t c = 1; c < chunks.size(); ++c) {
    all.rows.insert(all.rows.end(), chunks[c].rows.begin(), chunks[c].rows.end());
    all.keys.insert(all.keys.end(), chunks[c].keys.begin(), chunks[c].keys.end());
    all.added.insert(all.added.end(), chunks[c].added.begin(), chunks[c].added.end());
    all.keysChanged = all.keysChanged || chunks[c].keysChanged;
  }
  Table out = gatherRows(*batch, all.rows);
  if (all.keysChanged) out.columns[keyColumn_] = Column(std::move(all.keys));
  out.columns.emplace_back(std::move(all.added));
  return out;
}

}  // namespace gsparql::engine
