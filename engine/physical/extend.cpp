#include "engine/physical/extend.h"

#include <algorithm>
#include <unordered_map>

#include "engine/physical/row_chunks.h"
#include "engine/physical/row_solution.h"

namespace gsparql::engine {
namespace {

std::vector<std::string> withVariables(std::vector<std::string> variables, const std::vector<ExtendBinding>& bindings) {
  for (const auto& b : bindings) {
    if (std::find(variables.begin(), variables.end(), b.variable) == variables.end()) variables.push_back(b.variable);
  }
  return variables;
}

}  // namespace

Extend::Extend(OperatorPtr child, const std::vector<ExtendBinding>& bindings, double rows, double cost)
    : Operator(withVariables(child->variables(), bindings), rows, cost), child_(std::move(child)) {
  std::vector<std::string> visible = child_->variables();
  for (const auto& b : bindings) {
    // A value of one variable has its id kept by key here (idsByKey_), not its term memoized as well.
    bindings_.push_back(
        {expr::Expression(b.expression, visible, expr::Expression::KeptBy::Caller), *columnOf(b.variable), b.text});
    if (std::find(visible.begin(), visible.end(), b.variable) == visible.end()) visible.push_back(b.variable);
    concurrent_ = concurrent_ && bindings_.back().expression.evaluatesConcurrently();
  }
}

std::string Extend::describe() const {
  std::string text;
  for (const auto& b : bindings_) text += (text.empty() ? "?" : ", ?") + variables()[b.target] + " := " + b.text;
  return "Extend " + text;
}

Extend::Worker Extend::newWorker(ExecutionContext& context) const {
  return {context.environmentFor(variables()), std::vector<ValuesByKey<ValueId>>(bindings_.size()), {},
          std::vector<expr::KeyedValues<TermId, std::string>>(bindings_.size())};
}

void Extend::openImpl(ExecutionContext& context) {
  workers_.clear();
  workers_.push_back(newWorker(context));
  child_->open(context);
}

// The id of a binding's value on `row`: the id of the variable it passes on
// unchanged, the one it had for the same key, or the id of its term.
ValueId Extend::valueAt(size_t binding, const Table& batch, size_t row, RowSolution& solution,
                        ExecutionContext& context) {
  const expr::Expression& expression = bindings_[binding].expression;
  Worker& worker = workers_.front();
  solution.moveTo(row);
  if (const std::optional<size_t> kept = expression.slotOfValue(solution)) return batch.at(row, *kept);
  const std::optional<size_t> keySlot = expression.keySlot();
  auto make = [&] { return valueOf(expression.evaluate(solution, worker.environment), context.terms); };
  return keySlot ? worker.idsByKey[binding].get(keyOf(expression, batch.at(row, *keySlot)), make) : make();
}

// A binding's values on this thread, row by row.
std::vector<ValueId> Extend::valuesHere(size_t binding, const Table& batch, ExecutionContext& context) {
  RowSolution solution(batch, context.terms);
  StopCheck stop(context.run.limits);
  std::vector<ValueId> values(batch.rows);
  for (row_ = 0; row_ < batch.rows; ++row_) {
    solution.prefetchAhead(row_, batch.rows, bindings_[binding].expression.slotsRead());
    stop(static_cast<int64_t>(bindings_[binding].expression.cost()));
    values[row_] = valueAt(binding, batch, row_, solution, context);
  }
  return values;
}

// The value of a binding on row `r`, on a thread: where its term is new to
// the query, or is another row's that is, `chunk` says so for afterwards.
void Extend::valueOnThread(size_t binding, const Table& batch, size_t r, RowSolution& solution, Worker& worker,
                           size_t slot, ExecutionContext& context, ChunkValues& chunk, std::vector<ValueId>& values) {
  const expr::Expression& expression = bindings_[binding].expression;
  solution.moveTo(r);
  if (const std::optional<size_t> kept = expression.slotOfValue(solution)) {
    values[r] = batch.at(r, *kept);
    return;
  }
  const std::optional<size_t> keySlot = expression.keySlot();
  const ValueId key = keySlot ? keyOf(expression, batch.at(r, *keySlot)) : kUndefined;
  if (keySlot) {
    if (const ValueId* known = worker.idsByKey[binding].find(key)) {
      values[r] = *known;
      return;
    }
    if (auto it = worker.unnumberedRowOfKey.find(key); it != worker.unnumberedRowOfKey.end()) {
      chunk.sameAs.emplace_back(r, it->second);
      return;
    }
  }
  expr::Result term = expression.evaluate(solution, worker.environment);
  TermId* known = term ? worker.idsByTerm[binding].find(*term) : nullptr;
  if (known && known->row != kNoRow) {
    chunk.sameAs.emplace_back(r, known->row);
    return;
  }
  const std::optional<ValueId> id = known ? known->id : term ? context.terms.knownId(*term) : kUndefined;
  if (id) {
    values[r] = *id;
    if (keySlot) worker.idsByKey[binding].remember(key, *id);
    if (term && !known) worker.idsByTerm[binding].remember(*term, {*id, kNoRow});
    return;
  }
  TermId* kept = worker.idsByTerm[binding].remember(*term, {kUndefined, r});
  chunk.unnumbered.push_back({r, slot, key, std::move(*term), kept});
  if (keySlot) worker.unnumberedRowOfKey.emplace(key, r);
}

// A binding's values on the query's threads: each evaluates its rows and
// finds the ids of terms the data holds or the query has seen; the terms
// left are numbered here afterwards, in row order (the codec is not shared
// while it changes), once per key or text a thread met them under.
std::vector<ValueId> Extend::valuesOnThreads(size_t binding, const Table& batch, ExecutionContext& context) {
  const expr::Expression& expression = bindings_[binding].expression;
  decodeForSharedReads(batch, expression.slotsRead(), context.terms);
  for (Worker& worker : workers_) worker.unnumberedRowOfKey.clear();
  std::vector<ValueId> values(batch.rows);
  std::vector<ChunkValues> chunks((batch.rows + kRowsPerChunk - 1) / kRowsPerChunk);
  forEachChunk(batch.rows, [&](size_t begin, size_t end, size_t slot) {
    RowSolution solution(batch, context.terms);
    StopCheck stop(context.run.limits);
    for (size_t r = begin; r < end; ++r) {
      solution.prefetchAhead(r, end, expression.slotsRead());
      stop(static_cast<int64_t>(expression.cost()));
      valueOnThread(binding, batch, r, solution, workers_.at(slot), slot, context, chunks[begin / kRowsPerChunk], values);
    }
  });
  for (ChunkValues& chunk : chunks) {
    for (Unnumbered& u : chunk.unnumbered) {
      values[u.row] = context.terms.idOfAbsent(u.term);
      if (expression.keySlot()) workers_[u.slot].idsByKey[binding].remember(u.key, values[u.row]);
      if (u.kept) *u.kept = {values[u.row], kNoRow};
    }
  }
  for (const ChunkValues& chunk : chunks) {
    for (const auto& [row, same] : chunk.sameAs) values[row] = values[same];
  }
  return values;
}

std::optional<Table> Extend::nextImpl(ExecutionContext& context) {
  auto batch = child_->next(context);
  if (!batch) return std::nullopt;
  const bool onThreads = concurrent_ && worthSplitting(batch->rows);
  while (onThreads && workers_.size() < threadSlots()) workers_.push_back(newWorker(context));
  // BNODE(label): one blank node per label and row, whichever binding asks
  // (the tables made on the first call: most BINDs make no blank nodes).
  std::vector<std::unordered_map<std::string, std::string>> blankNodes;
  expr::Environment& environment = workers_.front().environment;
  environment.blankNodeFor = [&](std::string_view label) {
    if (blankNodes.empty()) blankNodes.resize(batch->rows);
    auto [it, added] = blankNodes[row_].try_emplace(std::string(label));
    if (added) it->second = environment.freshBlankNode();
    return it->second;
  };
  for (size_t b = 0; b < bindings_.size(); ++b) {
    std::vector<ValueId> values = onThreads ? valuesOnThreads(b, *batch, context) : valuesHere(b, *batch, context);
    if (bindings_[b].target < batch->width()) {
      batch->columns[bindings_[b].target] = Column(std::move(values));
    } else {
      batch->columns.emplace_back(std::move(values));
    }
  }
  environment.blankNodeFor = nullptr;
  return batch;
}

}  // namespace gsparql::engine
