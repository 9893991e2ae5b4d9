#include "engine/physical/order_by.h"

#include <algorithm>
#include <deque>
#include <numeric>

#include "engine/physical/row_solution.h"
#include "engine/term_order.h"

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

OrderBy::KeyValues OrderBy::valuesOf(const Key& key, const Table& rows, ExecutionContext& context,
                                     std::deque<std::string>& store) {
  KeyValues values(rows.rows);
  if (key.column) {
    context.terms.prefetch(rows.columns[*key.column]);
    for (size_t r = 0; r < rows.rows; ++r) {
      const ValueId id = rows.at(r, *key.column);
      if (isBound(id)) values[r] = context.terms.term(id);
    }
    return values;
  }
  RowSolution solution(rows, context.terms);
  expr::Environment environment = context.environmentFor(variables());
  for (size_t r = 0; r < rows.rows; ++r) {
    solution.moveTo(r);
    if (auto term = key.expression.evaluate(solution, environment)) values[r] = store.emplace_back(std::move(*term));
  }
  return values;
}

void OrderBy::openImpl(ExecutionContext& context) {
  Table rows = runToEnd(*child_, context);
  std::deque<std::string> computed;
  std::vector<KeyValues> values;
  for (const Key& key : keys_) values.push_back(valuesOf(key, rows, context, computed));
  std::vector<size_t> order(rows.rows);
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    for (size_t k = 0; k < keys_.size(); ++k) {
      const int c = compareTerms(values[k][a], values[k][b]);
      if (c != 0) return keys_[k].descending ? c > 0 : c < 0;
    }
    return false;
  });
  cursor_.reset(gatherRows(rows, order));
}

}  // namespace gsparql::engine
