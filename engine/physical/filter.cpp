#include "engine/physical/filter.h"

#include <algorithm>

#include "engine/physical/row_chunks.h"

namespace gsparql::engine {

Filter::Filter(OperatorPtr child, const std::vector<sparql::Expr>& conditions, std::string text, double rows,
               double cost)
    : Operator(child->variables(), rows, cost), child_(std::move(child)), text_(std::move(text)) {
  // A condition of one variable is decided once per term of it here (decisions), not memoized as well.
  for (const auto& c : conditions) {
    conditions_.push_back({expr::Expression(c, variables(), expr::Expression::KeptBy::Caller),
                           TypedComparison::of(c, variables())});
    const auto& read = conditions_.back().expression.slotsRead();
    slotsRead_.insert(slotsRead_.end(), read.begin(), read.end());
    concurrent_ = concurrent_ && conditions_.back().expression.evaluatesConcurrently();
  }
  std::sort(slotsRead_.begin(), slotsRead_.end());
  slotsRead_.erase(std::unique(slotsRead_.begin(), slotsRead_.end()), slotsRead_.end());
}

Filter::Worker Filter::newWorker(ExecutionContext& context) const {
  Worker worker{.environment = context.environmentFor(variables()),
                .decisions = std::vector<ValuesByKey<bool>>(conditions_.size()),
                .order = std::vector<size_t>(conditions_.size()),
                .tally = std::vector<Tally>(conditions_.size())};
  for (size_t i = 0; i < worker.order.size(); ++i) worker.order[i] = i;
  return worker;
}

void Filter::openImpl(ExecutionContext& context) {
  workers_.clear();
  workers_.push_back(newWorker(context));
  emitted_ = 0;
  child_->open(context);
}

// Each condition evaluated counts as the nodes of its expression towards the
// next check for a stop: a row of a long expression weighs more.
bool Filter::holds(Worker& worker, const Table& batch, size_t row, RowSolution& solution, ExecutionContext& context,
                   StopCheck& stop) const {
  solution.moveTo(row);
  for (const size_t i : worker.order) {
    const Condition& c = conditions_[i];
    const auto decided = c.typed ? c.typed->decide(batch, row, context.terms) : std::nullopt;
    stop(decided ? 1 : c.expression.cost());
    ++worker.tally[i].evaluated;
    if (!(decided ? *decided : decision(worker, i, batch, row, solution))) {
      ++worker.tally[i].rejected;
      return false;
    }
  }
  return true;
}

// The conditions that rejected the largest share of the rows they saw go
// first: a row is dropped by the first condition that fails, and the
// conjuncts of a FILTER may be tested in any order (an error is false in
// each). SUBSTR(?t, 2, 1) = "a" before STRENDS(LCASE(?t), "s") keeps LCASE
// off the rows whose second letter is not "a".
void Filter::reorder(Worker& worker) {
  auto rate = [&](size_t i) {
    return static_cast<double>(worker.tally[i].rejected) /
           static_cast<double>(std::max<uint64_t>(worker.tally[i].evaluated, 1));
  };
  std::stable_sort(worker.order.begin(), worker.order.end(), [&](size_t a, size_t b) { return rate(a) > rate(b); });
}

// A condition's decision on the row `solution` is at.
bool Filter::decision(Worker& worker, size_t condition, const Table& batch, size_t row,
                      RowSolution& solution) const {
  const expr::Expression& expression = conditions_[condition].expression;
  auto decide = [&] { return expression.holds(solution, worker.environment); };
  const std::optional<size_t> keySlot = expression.keySlot();
  return keySlot ? worker.decisions[condition].get(keyOf(expression, batch.at(row, *keySlot)), decide) : decide();
}

// Tests rows [begin, end) of `batch`, marking those that pass, until
// `wanted` have passed.
void Filter::test(Worker& worker, const Table& batch, size_t begin, size_t end, ExecutionContext& context,
                  std::vector<char>& passed, uint64_t wanted) const {
  RowSolution solution(batch, context.terms);
  StopCheck stop(context.run.limits);
  uint64_t found = 0;
  for (size_t r = begin; r < end && found < wanted; ++r) {
    solution.prefetchAhead(r, end, slotsRead_);
    passed[r] = holds(worker, batch, r, solution, context, stop);
    found += passed[r];
    if (++worker.rowsSeen % kRowsBetweenReorders == 0 && conditions_.size() > 1) reorder(worker);
  }
}

// The rows of a batch that pass: on the query's threads where the batch is
// large and no condition calls back into the query, else on this one; for a
// consumer that reads few rows, on this one until it has them.
std::vector<size_t> Filter::rowsKept(const Table& batch, ExecutionContext& context) {
  std::vector<char> passed(batch.rows);
  if (concurrent_ && !readAtMost_ && worthSplitting(batch.rows)) {
    decodeForSharedReads(batch, slotsRead_, context.terms);
    while (workers_.size() < threadSlots()) workers_.push_back(newWorker(context));
    forEachChunk(batch.rows, [&](size_t begin, size_t end, size_t slot) {
      test(workers_.at(slot), batch, begin, end, context, passed, UINT64_MAX);
    });
  } else {
    test(workers_.front(), batch, 0, batch.rows, context, passed, readAtMost_ ? *readAtMost_ - emitted_ : UINT64_MAX);
  }
  std::vector<size_t> keep;
  for (size_t r = 0; r < batch.rows; ++r) {
    if (passed[r]) keep.push_back(r);
  }
  return keep;
}

std::optional<Table> Filter::nextImpl(ExecutionContext& context) {
  if (readAtMost_ && emitted_ >= *readAtMost_) return std::nullopt;
  while (auto batch = child_->next(context)) {
    const std::vector<size_t> keep = rowsKept(*batch, context);
    emitted_ += keep.size();
    if (!keep.empty()) return gatherRows(*batch, keep);
  }
  return std::nullopt;
}

}  // namespace gsparql::engine
