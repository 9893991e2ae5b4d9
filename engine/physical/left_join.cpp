#include "engine/physical/left_join.h"

#include "engine/physical/row_solution.h"

namespace gsparql::engine {

LeftJoin::LeftJoin(OperatorPtr left, OperatorPtr right, std::vector<sparql::Expr> condition, double rows, double cost)
    : BuildProbe(std::move(left), std::move(right), true, rows, cost) {
  for (const auto& e : condition) {
    condition_.emplace_back(e, variables());
    conditionCost_ += static_cast<int64_t>(condition_.back().cost());
  }
}

std::string LeftJoin::describe() const {
  return "LeftJoin (OPTIONAL) " + sharedVariables() + (condition_.empty() ? "" : ", with a condition");
}

void LeftJoin::probe(const Table& left, size_t row, std::span<const ValueId> key, Table& out,
                     ExecutionContext& context) {
  bool matched = false;
  index().forEachCompatible(key, [&](uint32_t r) {
    visited(conditionCost_);
    if (!condition_.empty()) {
      merged_ = Table(variables().size());
      appendMergedRow(left, row, right(), r, rightColumnOfOutput(), merged_);
      RowSolution solution(merged_, context.terms);
      if (!environment_) environment_ = context.environmentFor(variables());
      for (const auto& c : condition_) {
        if (!c.holds(solution, *environment_)) return;
      }
    }
    appendMergedRow(left, row, right(), r, rightColumnOfOutput(), out);
    matched = true;
  });
  if (matched) return;
  for (size_t c = 0; c < out.width(); ++c) out.columns[c].push_back(c < left.width() ? left.at(row, c) : kUndefined);
  ++out.rows;
}

}  // namespace gsparql::engine
