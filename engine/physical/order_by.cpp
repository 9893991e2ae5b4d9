#include "engine/physical/order_by.h"

#include <algorithm>
#include <deque>
#include <numeric>

#include "engine/expr/term_order.h"
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

OrderBy::KeyValues OrderBy::valuesOf(const Key& key, const Table& rows, ExecutionContext& context,
                                     std::deque<std::string>& store) {
  KeyValues values;
  if (key.column) {
    values.ids = rows.columns[*key.column];
    std::vector<ValueId> undecided;  // decoded in one batch: terms that are no numbers
    for (size_t r = 0; r < values.ids.size(); ++r) {
      const ValueId id = values.ids[r];
      const rdf::TypedValue* typed = context.terms.typedValue(id);
      if (isBound(id) && (typed == nullptr || !isNumber(*typed))) undecided.push_back(id);
    }
    context.terms.prefetch(undecided);
    return values;
  }
  values.terms.resize(rows.rows);
  RowSolution solution(rows, context.terms);
  expr::Environment environment = context.environmentFor(variables());
  for (size_t r = 0; r < rows.rows; ++r) {
    solution.moveTo(r);
    if (auto term = key.expression.evaluate(solution, environment)) values.terms[r] = store.emplace_back(std::move(*term));
  }
  return values;
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
  Table rows = runToEnd(*child_, context);
  std::deque<std::string> computed;
  std::vector<KeyValues> values;
  for (const Key& key : keys_) values.push_back(valuesOf(key, rows, context, computed));
  std::vector<size_t> order(rows.rows);
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    for (size_t k = 0; k < keys_.size(); ++k) {
      const KeyValues& v = values[k];
      const int c = keys_[k].column ? compareIds(v.ids[a], v.ids[b], context.terms)
                                    : expr::compareTerms(v.terms[a], v.terms[b]);
      if (c != 0) return keys_[k].descending ? c > 0 : c < 0;
    }
    return false;
  });
  cursor_.reset(gatherRows(rows, order));
}

}  // namespace gsparql::engine
