#pragma once
// ORDER BY (section 15.1): a stable sort of all input rows by the keys'
// values in SPARQL's order of terms (engine/expr/term_order.h). Numbers are
// ordered by the value column (storage/value_column.h) without decoding.
// Under a LIMIT only the first rows are put in order (a partial sort, ties
// kept in input order), and rows are gathered in sorted order a batch at a
// time as they are read.

#include "engine/expr/expression.h"
#include "engine/physical/operator.h"
#include "parser/algebra.h"

namespace gsparql::engine {

class OrderBy final : public Operator {
 public:
  OrderBy(OperatorPtr child, const std::vector<sparql::OrderKey>& keys, std::string text);
  std::string describe() const override { return "OrderBy " + text_; }
  std::vector<const Operator*> children() const override { return {child_.get()}; }
  void readAtMost(uint64_t rows) override { readAtMost_ = rows; }

 private:
  struct Key {
    expr::Expression expression;
    std::optional<size_t> column;  // a plain variable: its column, no evaluation
    bool descending;
  };
  // A key's value per row: for an expression, the terms computed one after
  // another in one arena (8 bytes a row beside them, and millions of terms
  // freed at once when a query stops); for a plain variable its ids,
  // compared by the value column where both are numbers and decoded only
  // otherwise.
  struct KeyValues {
    std::vector<char> arena;
    std::vector<uint64_t> ends;  // per row, where its term ends in the arena; kUnbound set: an error
    const Column* ids = nullptr;  // the input's column, read in place
    static constexpr uint64_t kUnbound = uint64_t{1} << 63;
    std::optional<std::string_view> term(size_t row) const;
  };

  void openImpl(ExecutionContext& context) override;
  std::optional<Table> nextImpl(ExecutionContext& context) override;
  KeyValues valuesOf(const Key& key, const Table& rows, ExecutionContext& context);
  static int compareIds(ValueId a, ValueId b, TermCodec& terms);
  // Puts the first `order_` rows in order: all of them, or readAtMost_.
  void sort(const std::vector<KeyValues>& values, ExecutionContext& context);
  template <class Before>
  void sortOnThreads(size_t first, const Before& before);

  OperatorPtr child_;
  std::vector<Key> keys_;
  std::string text_;
  std::optional<uint64_t> readAtMost_;
  Table rows_;                 // the input
  std::vector<size_t> order_;  // its rows in sorted order, as far as they are read
  size_t position_ = 0;        // the next of order_ to hand out
};

}  // namespace gsparql::engine
