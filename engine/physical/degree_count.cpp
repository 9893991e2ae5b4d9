#include "engine/physical/degree_count.h"

#include <unordered_map>

#include "engine/expr/terms.h"
#include "storage/graph_store.h"

namespace gsparql::engine {
namespace {

std::vector<std::string> variablesOf(std::string key, std::vector<std::string> counts) {
  counts.insert(counts.begin(), std::move(key));
  return counts;
}

}  // namespace

DegreeCount::DegreeCount(std::string keyVariable, std::vector<std::string> countVariables,
                         std::optional<uint32_t> predicate, pcsr::Direction direction, std::string predicateText,
                         double groups)
    : Operator(variablesOf(std::move(keyVariable), std::move(countVariables)), groups, groups),
      predicate_(predicate), direction_(direction), predicateText_(std::move(predicateText)) {}

std::string DegreeCount::describe() const {
  return "DegreeCount ?" + variables().front() + ": the " + (direction_ == pcsr::Direction::Out ? "out" : "in") +
         "-degree through " + predicateText_ + " of each vertex (no rows of the pattern made)" +
         (predicate_ ? "" : ", the predicate is absent from the data: no groups");
}

void DegreeCount::openImpl(ExecutionContext&) {
  cursor_.reset(Table(variables().size()));
  done_ = false;
}

std::optional<Table> DegreeCount::nextImpl(ExecutionContext& context) {
  if (!done_) {
    cursor_.reset(groups(context));
    done_ = true;
  }
  return cursor_.next();
}

// One row per key: the vertex, and its degree in every count column. Few
// degrees are distinct: each count's term is made once.
Table DegreeCount::groups(ExecutionContext& context) const {
  Table table(variables().size());
  if (!predicate_) return table;
  const PredicateAdjacency& adjacency = context.store.adjacency(direction_).predicate(*predicate_);
  const std::span<const uint32_t> keys = adjacency.keys();
  context.run.limits.checkMemory(keys.size() * variables().size() * sizeof(ValueId), "the groups of " + describe());
  std::unordered_map<size_t, ValueId> countIds;
  StopCheck stop(context.run.limits);
  for (const uint32_t key : keys) {
    stop();
    const size_t degree = adjacency.neighbours(key).size();
    auto [count, fresh] = countIds.try_emplace(degree);
    if (fresh) count->second = context.terms.idOf(expr::integerTerm(static_cast<long long>(degree)));
    table.columns[0].push_back(context.terms.fromVertex(key));
    for (size_t c = 1; c < table.columns.size(); ++c) table.columns[c].push_back(count->second);
  }
  table.rows = keys.size();
  return table;
}

}  // namespace gsparql::engine
