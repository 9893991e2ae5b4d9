#include "engine/physical/group_by.h"

#include <algorithm>

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
    : Operator(outputVariables(keys, aggregates), rows, cost), child_(std::move(child)), text_(std::move(text)),
      groupIndex_(keys.size()) {
  for (const auto& k : keys) {
    std::optional<size_t> column = isPlainVariable(k.expr) ? child_->columnOf(k.expr.term.value) : std::nullopt;
    keys_.push_back({expr::Expression(k.expr, child_->variables()), column, !k.var.empty()});
  }
  for (const auto& a : aggregates) {
    Aggregate aggregate{a.expr, std::nullopt, a.expr.star && !a.expr.distinct, std::nullopt, std::nullopt, false};
    if (!a.expr.star) aggregate.argument.emplace(a.expr.args.at(0), child_->variables());
    if (!a.expr.star && isPlainVariable(a.expr.args[0])) {
      aggregate.column = child_->columnOf(a.expr.args[0].term.value);
      aggregate.distinctIds = a.expr.distinct && aggregate.column;
      if (a.expr.name == "COUNT" && !a.expr.distinct) aggregate.countsBound = aggregate.column;
    }
    aggregates_.push_back(std::move(aggregate));
  }
  for (const Key& k : keys_) rowCost_ += static_cast<int64_t>(k.expression.cost());
  for (const Aggregate& a : aggregates_) rowCost_ += a.argument ? static_cast<int64_t>(a.argument->cost()) : 1;
  groupBytes_ = sizeof(Group) + keys_.size() * sizeof(ValueId) + kIndexEntryBytes +
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

size_t GroupBy::groupOf(const Table& batch, size_t row, ExecutionContext& context, expr::Solution& solution,
                        expr::Environment& environment) {
  for (size_t k = 0; k < keys_.size(); ++k) {
    const Key& spec = keys_[k];
    key_[k] = spec.column ? batch.at(row, *spec.column)
                          : valueOf(spec.expression.evaluate(solution, environment), context.terms);
  }
  const auto [group, added] = groupIndex_.findOrAdd(key_);
  if (added) groups_.push_back(newGroup());
  return group;
}

void GroupBy::accumulate(size_t groupNumber, const Table& batch, size_t row, ExecutionContext&,
                         expr::Solution& solution, expr::Environment& environment) {
  Group& group = groups_[groupNumber];
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
        if (!passedOn_[a].findOrAdd(pair).second) continue;
        ++pairsPassedOn_;
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

void GroupBy::openImpl(ExecutionContext& context) {
  groupIndex_.clear();
  key_.assign(keys_.size(), kUndefined);
  groups_.clear();
  if (keys_.empty()) groups_.push_back(newGroup());
  passedOn_.assign(aggregates_.size(), GroupIndex(2));
  pairsPassedOn_ = 0;
  const bool rowsOnly = keys_.empty() && std::all_of(aggregates_.begin(), aggregates_.end(),
                                                      [](const Aggregate& a) { return a.countsRows; });
  expr::Environment environment = context.environmentFor(child_->variables());
  StopCheck stop(context.run.limits);
  child_->open(context);
  while (auto batch = child_->next(context)) {
    if (rowsOnly) {
      groups_[0].rows += batch->rows;
      continue;
    }
    RowSolution solution(*batch, context.terms);
    for (size_t r = 0; r < batch->rows; ++r) {
      stop(rowCost_);
      solution.moveTo(r);
      const size_t group = keys_.empty() ? 0 : groupOf(*batch, r, context, solution, environment);
      accumulate(group, *batch, r, context, solution, environment);
    }
    context.run.limits.checkMemory(groups_.size() * groupBytes_ + pairsPassedOn_ * kPairBytes,
                                   "the groups of " + describe());
  }
  cursor_.reset(finish(context));
}

ValueId GroupBy::countTerm(uint64_t count, ExecutionContext& context) const {
  return context.terms.idOf(rdf::literalTerm(std::to_string(count), {}, std::string(rdf::kXsd) + "integer"));
}

Table GroupBy::finish(ExecutionContext& context) {
  Table out(variables().size());
  std::vector<ValueId> row;
  for (size_t g = 0; g < groups_.size(); ++g) {
    Group& group = groups_[g];
    row.clear();
    for (size_t k = 0; k < keys_.size(); ++k) {
      if (keys_[k].output) row.push_back(groupIndex_.key(g)[k]);
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
