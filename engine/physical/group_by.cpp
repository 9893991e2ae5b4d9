#include "engine/physical/group_by.h"

#include <algorithm>
#include <tuple>

#include "engine/physical/row_chunks.h"
#include "engine/physical/row_hash.h"
#include "engine/physical/row_solution.h"
#include "rdf/term.h"

namespace gsparql::engine {
namespace {

std::vector<std::string> outputVariables(const std::vector<sparql::Binding>& keys,
                                         const std::vector<sparql::Binding>& aggregates) {
  std::vector<std::string> names;
  for (const auto& k : keys) {
    if (!k.var.empty()) names.push_back(k.var);
  }
  for (const auto& a : aggregates) names.push_back(a.var);
  return names;
}

bool isPlainVariable(const sparql::Expr& e) {
  return e.kind == sparql::Expr::Kind::Term && e.term.kind == sparql::Term::Kind::Variable;
}

// COUNT(DISTINCT *) counts distinct solutions: a row's ids stand for it.
std::string rowAsTerm(const Table& batch, size_t row) {
  std::string ids;
  for (size_t c = 0; c < batch.width(); ++c) ids += std::to_string(batch.at(row, c)) + ",";
  return rdf::literalTerm(ids);
}

}  // namespace

GroupBy::GroupBy(OperatorPtr child, const std::vector<sparql::Binding>& keys,
                 const std::vector<sparql::Binding>& aggregates, std::string text, double rows, double cost)
    : Operator(outputVariables(keys, aggregates), rows, cost), child_(std::move(child)), text_(std::move(text)) {
  for (const auto& k : keys) {
    std::optional<size_t> column = isPlainVariable(k.expr) ? child_->columnOf(k.expr.term.value) : std::nullopt;
    keys_.push_back({expr::Expression(k.expr, child_->variables()), column, !k.var.empty()});
    // A computed key is numbered in the query's codec, on one thread.
    concurrent_ = concurrent_ && column;
  }
  for (const auto& a : aggregates) {
    Aggregate aggregate{a.expr, std::nullopt, a.expr.star && !a.expr.distinct, std::nullopt, std::nullopt, false};
    if (!a.expr.star) aggregate.argument.emplace(a.expr.args.at(0), child_->variables());
    if (!a.expr.star && isPlainVariable(a.expr.args[0])) {
      aggregate.column = child_->columnOf(a.expr.args[0].term.value);
      aggregate.distinctIds = a.expr.distinct && aggregate.column;
      if (a.expr.name == "COUNT" && !a.expr.distinct) aggregate.countsBound = aggregate.column;
    }
    if (aggregate.column && !aggregate.countsBound) slotsRead_.push_back(*aggregate.column);
    if (aggregate.argument && !aggregate.column) {
      const auto& read = aggregate.argument->slotsRead();
      slotsRead_.insert(slotsRead_.end(), read.begin(), read.end());
      concurrent_ = concurrent_ && aggregate.argument->evaluatesConcurrently();
    }
    aggregates_.push_back(std::move(aggregate));
  }
  std::sort(slotsRead_.begin(), slotsRead_.end());
  slotsRead_.erase(std::unique(slotsRead_.begin(), slotsRead_.end()), slotsRead_.end());
  for (const Key& k : keys_) rowCost_ += static_cast<int64_t>(k.expression.cost());
  for (const Aggregate& a : aggregates_) rowCost_ += a.argument ? static_cast<int64_t>(a.argument->cost()) : 1;
  groupBytes_ = sizeof(Group) + keys_.size() * sizeof(ValueId) + kIndexEntryBytes + sizeof(uint64_t) +
                aggregates_.size() * (kAggregatorBytes + sizeof(uint64_t));
}

GroupBy::Group GroupBy::newGroup() const {
  Group group;
  group.bound.assign(aggregates_.size(), 0);
  for (const auto& a : aggregates_) {
    const bool onIds = a.countsRows || a.countsBound;
    group.aggregators.push_back(onIds            ? nullptr
                                : a.distinctIds ? expr::makeAggregatorOfDistinctValues(a.definition)
                                                 : expr::makeAggregator(a.definition));
  }
  return group;
}

size_t GroupBy::groupOf(Partition& partition, std::vector<ValueId>& key, const Table& batch, size_t row,
                        ExecutionContext& context, expr::Solution& solution, expr::Environment& environment) const {
  for (size_t k = 0; k < keys_.size(); ++k) {
    const Key& spec = keys_[k];
    key[k] = spec.column ? batch.at(row, *spec.column)
                         : valueOf(spec.expression.evaluate(solution, environment), context.terms);
  }
  const auto [group, added] = partition.index.findOrAdd(key);
  if (added) {
    partition.groups.push_back(newGroup());
    partition.firstRow.push_back(rowsBefore_ + row);
  }
  return group;
}

void GroupBy::accumulate(Partition& partition, size_t groupNumber, const Table& batch, size_t row,
                         expr::Solution& solution, expr::Environment& environment) const {
  Group& group = partition.groups[groupNumber];
  ++group.rows;
  for (size_t a = 0; a < aggregates_.size(); ++a) {
    const Aggregate& aggregate = aggregates_[a];
    if (aggregate.countsRows) continue;
    if (aggregate.countsBound) {
      group.bound[a] += isBound(batch.at(row, *aggregate.countsBound));
    } else if (aggregate.column) {
      const ValueId id = batch.at(row, *aggregate.column);
      if (aggregate.distinctIds && isBound(id)) {
        const ValueId pair[] = {groupNumber, id};
        if (!partition.passedOn[a].findOrAdd(pair).second) continue;
        ++partition.pairsPassedOn;
      }
      group.aggregators[a]->add(solution.term(*aggregate.column));
    } else if (aggregate.argument) {
      const expr::Result value = aggregate.argument->evaluate(solution, environment);
      group.aggregators[a]->add(value ? std::optional<std::string_view>(*value) : std::nullopt);
    } else {
      group.aggregators[a]->add(rowAsTerm(batch, row));
    }
  }
}

void GroupBy::aggregateRows(size_t part, const Table& batch, const std::vector<uint8_t>& partOf,
                            ExecutionContext& context, expr::Environment& environment) {
  Partition& partition = partitions_[part];
  RowSolution solution(batch, context.terms);
  StopCheck stop(context.run.limits);
  std::vector<ValueId> key(keys_.size());
  for (size_t r = 0; r < batch.rows; ++r) {
    if (!partOf.empty() && partOf[r] != part) continue;
    stop(rowCost_);
    solution.moveTo(r);
    const size_t group = keys_.empty() ? 0 : groupOf(partition, key, batch, r, context, solution, environment);
    accumulate(partition, group, batch, r, solution, environment);
  }
}

// As many partitions as the query has threads, where the keys are variables
// (a computed key is numbered on one thread) and the arguments evaluate
// concurrently: 64 at most, so that a row's partition is a byte.
size_t GroupBy::partitionsFor() const {
  if (!concurrent_ || keys_.empty()) return 1;
  return std::min<size_t>(threadSlots(), 64);
}

// A row's partition comes from the low bits of its key's hash, the index of
// a partition taking its slots from the high ones.
void GroupBy::aggregate(const Table& batch, ExecutionContext& context) {
  while (environments_.size() < threadSlots()) environments_.push_back(context.environmentFor(child_->variables()));
  const size_t parts = partitions_.size();
  if (parts == 1) return aggregateRows(0, batch, {}, context, environments_.front());
  std::vector<uint8_t> partOf(batch.rows);
  const auto partition = [&](size_t begin, size_t end, size_t) {
    std::vector<ValueId> key(keys_.size());
    for (size_t r = begin; r < end; ++r) {
      for (size_t k = 0; k < keys_.size(); ++k) key[k] = batch.at(r, *keys_[k].column);
      partOf[r] = static_cast<uint8_t>(((hashIds(key) & 0xFFFFFFFFu) * parts) >> 32);
    }
  };
  if (!worthSplitting(batch.rows)) {
    partition(0, batch.rows, 0);
    for (size_t p = 0; p < parts; ++p) aggregateRows(p, batch, partOf, context, environments_.front());
    return;
  }
  decodeForSharedReads(batch, slotsRead_, context.terms);
  forEachChunk(batch.rows, partition);
  forEachTask(parts, [&](size_t p, size_t slot) { aggregateRows(p, batch, partOf, context, environments_.at(slot)); });
}

void GroupBy::openImpl(ExecutionContext& context) {
  partitions_.clear();
  for (size_t p = partitionsFor(); p > 0; --p) partitions_.emplace_back(keys_.size(), aggregates_.size());
  if (keys_.empty()) {
    partitions_[0].groups.push_back(newGroup());
    partitions_[0].firstRow.push_back(0);
  }
  environments_.clear();
  rowsBefore_ = 0;
  const bool rowsOnly = keys_.empty() && std::all_of(aggregates_.begin(), aggregates_.end(),
                                                      [](const Aggregate& a) { return a.countsRows; });
  child_->open(context);
  while (auto batch = child_->next(context)) {
    if (rowsOnly) {
      partitions_[0].groups[0].rows += batch->rows;
      continue;
    }
    aggregate(*batch, context);
    rowsBefore_ += batch->rows;
    uint64_t bytes = 0;
    for (const Partition& p : partitions_) bytes += p.groups.size() * groupBytes_ + p.pairsPassedOn * kPairBytes;
    context.run.limits.checkMemory(bytes, "the groups of " + describe());
  }
  cursor_.reset(finish(context));
}

ValueId GroupBy::countTerm(uint64_t count, ExecutionContext& context) const {
  return context.terms.idOf(rdf::literalTerm(std::to_string(count), {}, std::string(rdf::kXsd) + "integer"));
}

// The groups in the order of their first rows: as one partition numbers them.
Table GroupBy::finish(ExecutionContext& context) {
  std::vector<std::tuple<uint64_t, uint32_t, uint32_t>> order;  // first row, partition, group
  for (size_t p = 0; p < partitions_.size(); ++p) {
    for (size_t g = 0; g < partitions_[p].groups.size(); ++g) {
      order.emplace_back(partitions_[p].firstRow[g], static_cast<uint32_t>(p), static_cast<uint32_t>(g));
    }
  }
  if (partitions_.size() > 1) std::sort(order.begin(), order.end());
  Table out(variables().size());
  std::vector<ValueId> row;
  for (const auto& [firstRow, p, g] : order) {
    Group& group = partitions_[p].groups[g];
    row.clear();
    for (size_t k = 0; k < keys_.size(); ++k) {
      if (keys_[k].output) row.push_back(partitions_[p].index.key(g)[k]);
    }
    for (size_t a = 0; a < aggregates_.size(); ++a) {
      if (aggregates_[a].countsRows) {
        row.push_back(countTerm(group.rows, context));
      } else if (aggregates_[a].countsBound) {
        row.push_back(countTerm(group.bound[a], context));
      } else {
        row.push_back(valueOf(group.aggregators[a]->finish(), context.terms));
      }
    }
    out.appendRow(row);
  }
  return out;
}

}  // namespace gsparql::engine
