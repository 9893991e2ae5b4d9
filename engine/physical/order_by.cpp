#include "engine/physical/order_by.h"

#include <tbb/parallel_sort.h>

#include <algorithm>

#include "engine/expr/term_order.h"
#include "engine/physical/row_chunks.h"
#include "engine/physical/row_solution.h"
#include "engine/value/typed_order.h"

namespace gsparql::engine {

OrderBy::OrderBy(OperatorPtr child, const std::vector<sparql::OrderKey>& keys, std::string text)
    : Operator(child->variables(), child->estimatedRows(), child->estimatedCost()), child_(std::move(child)),
      text_(std::move(text)) {
  for (const auto& key : keys) {
    std::optional<size_t> column;
    if (key.expr.kind == sparql::Expr::Kind::Term && key.expr.term.kind == sparql::Term::Kind::Variable) {
      column = child_->columnOf(key.expr.term.value);
    }
    keys_.push_back({expr::Expression(key.expr, variables()), column, key.descending});
  }
}

OrderBy::KeyValues OrderBy::valuesOf(const Key& key, const Table& rows, ExecutionContext& context) {
  KeyValues values;
  if (key.column) {
    values.ids = &rows.columns[*key.column];
    std::vector<ValueId> undecided;  // decoded a batch at a time: terms that are no numbers
    StopCheck stop(context.run.limits);
    for (size_t r = 0; r < values.ids->size(); ++r) {
      stop();
      const ValueId id = (*values.ids)[r];
      const rdf::TypedValue* typed = context.terms.typedValue(id);
      if (isBound(id) && (typed == nullptr || !isNumber(*typed))) undecided.push_back(id);
      if (undecided.size() == kBatchRows) {
        context.terms.prefetch(undecided);
        undecided.clear();
      }
    }
    context.terms.prefetch(undecided);
    return values;
  }
  RowSolution solution(rows, context.terms);
  expr::Environment environment = context.environmentFor(variables());
  StopCheck stop(context.run.limits);
  values.ends.reserve(rows.rows);  // its pages are touched in the loop, which checks for a stop
  for (size_t r = 0; r < rows.rows; ++r) {
    stop(static_cast<int64_t>(key.expression.cost()));
    solution.moveTo(r);
    const auto term = key.expression.evaluate(solution, environment);
    if (term) values.arena.insert(values.arena.end(), term->begin(), term->end());
    values.ends.push_back(values.arena.size() | (term ? 0 : KeyValues::kUnbound));
  }
  return values;
}

std::optional<std::string_view> OrderBy::KeyValues::term(size_t row) const {
  if (ends[row] & kUnbound) return std::nullopt;
  const uint64_t begin = row == 0 ? 0 : ends[row - 1] & ~kUnbound;
  return std::string_view(arena.data() + begin, ends[row] - begin);
}

int OrderBy::compareIds(ValueId a, ValueId b, TermCodec& terms) {
  if (a == b) return 0;
  const rdf::TypedValue *x = terms.typedValue(a), *y = terms.typedValue(b);
  if (x != nullptr && y != nullptr && isNumber(*x) && isNumber(*y)) {
    if (auto order = compareTypedValues(*x, *y); order && *order != 0) return *order;
  }
  auto term = [&](ValueId id) { return isBound(id) ? std::optional<std::string_view>(terms.term(id)) : std::nullopt; };
  return expr::compareTerms(term(a), term(b));
}

void OrderBy::openImpl(ExecutionContext& context) {
  rows_ = runToEnd(*child_, context);
  std::vector<KeyValues> values;
  for (const Key& key : keys_) values.push_back(valuesOf(key, rows_, context));
  sort(values, context);
  position_ = 0;
}

// Ties are broken by input position, so that the partial sort keeps them in
// input order as the stable sort does, and any split of the work gives the
// same order; every comparison counts towards the next check for a stop.
void OrderBy::sort(const std::vector<KeyValues>& values, ExecutionContext& context) {
  StopCheck stop(context.run.limits);
  order_.clear();
  order_.reserve(rows_.rows);  // its pages are touched below, a row at a time, between checks
  for (size_t r = 0; r < rows_.rows; ++r) {
    stop();
    order_.push_back(r);
  }
  const QueryLimits& limits = context.run.limits;
  auto before = [&](size_t a, size_t b) {
    countOnThisThread(limits);
    for (size_t k = 0; k < keys_.size(); ++k) {
      const KeyValues& v = values[k];
      const int c = keys_[k].column ? compareIds((*v.ids)[a], (*v.ids)[b], context.terms)
                                    : expr::compareTerms(v.term(a), v.term(b));
      if (c != 0) return keys_[k].descending ? c > 0 : c < 0;
    }
    return a < b;
  };
  const size_t first = readAtMost_ ? std::min<size_t>(*readAtMost_, order_.size()) : order_.size();
  if (worthSplitting(order_.size())) {
    std::vector<size_t> keyColumns;
    for (const Key& key : keys_) {
      if (key.column) keyColumns.push_back(*key.column);
    }
    decodeForSharedReads(rows_, keyColumns, context.terms);
    sortOnThreads(first, before);
  } else if (first == order_.size()) {
    std::sort(order_.begin(), order_.end(), before);
  } else {
    std::partial_sort(order_.begin(), order_.begin() + static_cast<ptrdiff_t>(first), order_.end(), before);
  }
  order_.resize(first);
}

// The first `first` rows in order on the query's threads: all of them by a
// parallel sort; a few by each chunk's first ones, then the first of those.
template <class Before>
void OrderBy::sortOnThreads(size_t first, const Before& before) {
  const size_t chunkRows = std::max(kRowsPerChunk, 4 * first);
  if (first == order_.size() || chunkRows >= order_.size()) {
    tbb::parallel_sort(order_.begin(), order_.end(), before);
    return;
  }
  const size_t chunks = (order_.size() + chunkRows - 1) / chunkRows;
  forEachTask(chunks, [&](size_t c, size_t) {
    const size_t begin = c * chunkRows, end = std::min(order_.size(), begin + chunkRows);
    const auto at = [&](size_t i) { return order_.begin() + static_cast<ptrdiff_t>(i); };
    std::partial_sort(at(begin), at(std::min(end, begin + first)), at(end), before);
  });
  std::vector<size_t> candidates;
  for (size_t c = 0; c < chunks; ++c) {
    const size_t begin = c * chunkRows;
    candidates.insert(candidates.end(), order_.begin() + static_cast<ptrdiff_t>(begin),
                      order_.begin() + static_cast<ptrdiff_t>(std::min(order_.size(), begin + first)));
  }
  std::partial_sort(candidates.begin(), candidates.begin() + static_cast<ptrdiff_t>(first), candidates.end(), before);
  candidates.resize(first);
  order_ = std::move(candidates);
}

std::optional<Table> OrderBy::nextImpl(ExecutionContext&) {
  if (position_ >= order_.size()) return std::nullopt;
  const size_t end = std::min(order_.size(), position_ + kBatchRows);
  Table batch = gatherRows(rows_, std::span<const size_t>(order_).subspan(position_, end - position_));
  position_ = end;
  if (position_ == order_.size()) rows_ = Table();  // read to the end: free the input
  return batch;
}

}  // namespace gsparql::engine
