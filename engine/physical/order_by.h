#pragma once
// ORDER BY (section 15.1): a stable sort of all input rows by the keys'
// values in SPARQL's order of terms (engine/expr/term_order.h). Numbers are
// ordered by the value column (storage/value_column.h) without decoding.
#include <deque>

#include "engine/expr/expression.h"
#include "engine/physical/operator.h"
#include "parser/algebra.h"

namespace gsparql::engine {

class OrderBy final : public Operator {
 public:
  OrderBy(OperatorPtr child, const std::vector<sparql::OrderKey>& keys, std::string text);
  std::string describe() const override { return "OrderBy " + text_; }
  std::vector<const Operator*> children() const override { return {child_.get()}; }

 private:
  struct Key {
    expr::Expression expression;
    std::optional<size_t> column;  // a plain variable: its column, no evaluation
    bool descending;
  };
  // A key's value per row: computed terms for expressions; for a plain
  // variable its ids, compared by the value column where both are numbers
  // and decoded only otherwise.
  struct KeyValues {
    std::vector<std::optional<std::string_view>> terms;
    Column ids;
  };

  void openImpl(ExecutionContext& context) override;
  std::optional<Table> nextImpl(ExecutionContext&) override { return cursor_.next(); }
  KeyValues valuesOf(const Key& key, const Table& rows, ExecutionContext& context, std::deque<std::string>& store);
  static int compareIds(ValueId a, ValueId b, TermCodec& terms);

  OperatorPtr child_;
  std::vector<Key> keys_;
  std::string text_;
  BatchCursor cursor_;
};

}  // namespace gsparql::engine
