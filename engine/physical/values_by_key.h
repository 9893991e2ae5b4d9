#pragma once
// What an operator made of an expression's value (an id, a decision), kept
// by the key of the one variable the expression depends on
// (expr::Expression::keySlot), so that rows repeating a term skip the
// evaluation and what follows it: 240,000 price rows hold 1,000 prices.
// Bounded as the expressions' own memo is; past the bound, values are made
// on every row. A run's state: operators hold one per expression and clear
// it when they open.
#include <unordered_map>

#include "engine/expr/expression_memo.h"
#include "engine/value/value_id.h"

namespace gsparql::engine {

template <class Value>
class ValuesByKey {
 public:
  // The value kept for `key`, or `make()`'s, kept while there is room.
  template <class Make>
  Value get(ValueId key, Make&& make) {
    if (auto it = values_.find(key); it != values_.end()) return it->second;
    const Value value = make();
    if (values_.size() < expr::ExpressionMemo::kMaxEntries) values_.emplace(key, value);
    return value;
  }

 private:
  std::unordered_map<ValueId, Value> values_;
};

}  // namespace gsparql::engine
