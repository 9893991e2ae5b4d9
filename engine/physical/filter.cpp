#include "engine/physical/filter.h"

#include <algorithm>

namespace gsparql::engine {

Filter::Filter(OperatorPtr child, const std::vector<sparql::Expr>& conditions, std::string text, double rows,
               double cost)
    : Operator(child->variables(), rows, cost), child_(std::move(child)), text_(std::move(text)) {
  // A condition of one variable is decided once per term of it here (decisions_), not memoized as well.
  for (const auto& c : conditions) {
    conditions_.push_back({expr::Expression(c, variables(), expr::Expression::KeptBy::Caller),
                           TypedComparison::of(c, variables())});
  }
}

void Filter::openImpl(ExecutionContext& context) {
  environment_ = context.environmentFor(variables());
  decisions_.assign(conditions_.size(), {});
  tally_.assign(conditions_.size(), {});
  rowsSeen_ = 0;
  order_.resize(conditions_.size());
  for (size_t i = 0; i < order_.size(); ++i) order_[i] = i;
  emitted_ = 0;
  child_->open(context);
}

// Each condition evaluated counts as the nodes of its expression towards the
// next check for a stop: a row of a long expression weighs more.
bool Filter::holds(const Table& batch, size_t row, RowSolution& solution, ExecutionContext& context, StopCheck& stop) {
  solution.moveTo(row);
  for (const size_t i : order_) {
    const Condition& c = conditions_[i];
    const auto decided = c.typed ? c.typed->decide(batch, row, context.terms) : std::nullopt;
    stop(decided ? 1 : c.expression.cost());
    ++tally_[i].evaluated;
    if (!(decided ? *decided : decision(i, batch, row, solution))) {
      ++tally_[i].rejected;
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
void Filter::reorder() {
  auto rate = [&](size_t i) {
    return static_cast<double>(tally_[i].rejected) / static_cast<double>(std::max<uint64_t>(tally_[i].evaluated, 1));
  };
  std::stable_sort(order_.begin(), order_.end(), [&](size_t a, size_t b) { return rate(a) > rate(b); });
}

// A condition's decision on the row `solution` is at.
bool Filter::decision(size_t condition, const Table& batch, size_t row, RowSolution& solution) {
  const expr::Expression& expression = conditions_[condition].expression;
  auto decide = [&] { return expression.holds(solution, *environment_); };
  const std::optional<size_t> keySlot = expression.keySlot();
  return keySlot ? decisions_[condition].get(batch.at(row, *keySlot), decide) : decide();
}

std::optional<Table> Filter::nextImpl(ExecutionContext& context) {
  if (readAtMost_ && emitted_ >= *readAtMost_) return std::nullopt;
  StopCheck stop(context.run.limits);
  while (auto batch = child_->next(context)) {
    RowSolution solution(*batch, context.terms);
    std::vector<size_t> keep;
    const uint64_t wanted = readAtMost_ ? *readAtMost_ - emitted_ : UINT64_MAX;
    for (size_t r = 0; r < batch->rows && keep.size() < wanted; ++r) {
      if (holds(*batch, r, solution, context, stop)) keep.push_back(r);
      if (++rowsSeen_ % kRowsBetweenReorders == 0 && conditions_.size() > 1) reorder();
    }
    emitted_ += keep.size();
    if (!keep.empty()) return gatherRows(*batch, keep);
  }
  return std::nullopt;
}

}  // namespace gsparql::engine
