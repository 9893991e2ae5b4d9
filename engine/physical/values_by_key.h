#pragma once
// What an operator made of an expression's value (an id, a decision), kept
// by the key of the one variable the expression depends on
// (expr::Expression::keySlot), so that rows repeating a term skip the
// evaluation and what follows it: 240,000 price rows hold 1,000 prices.
// Bounded, and given up on mostly distinct terms, as the expressions' own
// memo is (expr::KeyedValues). A run's state: operators hold one per
// expression and clear it when they open.
#include "engine/expr/expression.h"
#include "engine/expr/expression_memo.h"
#include "engine/value/value_id.h"

namespace gsparql::engine {

// The key by which what `expression` gives on a row is kept: the id of its
// key slot's term, or whether it is bound where the expression only tests
// that (expr::Expression::testsOnlyBoundness).
inline ValueId keyOf(const expr::Expression& expression, ValueId slotId) {
  return expression.testsOnlyBoundness() ? ValueId{isBound(slotId)} : slotId;
}

template <class Value>
class ValuesByKey {
 public:
  // The value kept for `key`, or `make()`'s, kept while that pays.
  template <class Make>
  Value get(ValueId key, Make&& make) {
    if (const Value* known = values_.find(key)) return *known;
    const Value value = make();
    values_.remember(key, value);
    return value;
  }
  const Value* find(ValueId key) { return values_.find(key); }
  void remember(ValueId key, const Value& value) { values_.remember(key, value); }

 private:
  expr::KeyedValues<Value> values_;
};

}  // namespace gsparql::engine
