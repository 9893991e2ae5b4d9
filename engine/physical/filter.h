#pragma once
// FILTER (section 18.5, Filter): the rows on which every condition's
// effective boolean value is true (an error counts as false). Comparisons of
// a variable with a number or date read the value column instead of
// decoding terms (TypedComparison).
#include <optional>

#include "engine/expr/expression.h"
#include "engine/physical/operator.h"
#include "engine/physical/row_solution.h"
#include "engine/physical/typed_comparison.h"
#include "engine/physical/values_by_key.h"

namespace gsparql::engine {

class Filter final : public Operator {
 public:
  Filter(OperatorPtr child, const std::vector<sparql::Expr>& conditions, std::string text, double rows, double cost);
  std::string describe() const override { return "Filter " + text_; }
  std::vector<const Operator*> children() const override { return {child_.get()}; }
  // Its consumer reads at most `rows` rows: a batch is evaluated only until
  // they are found (LIMIT 1 over an expensive condition evaluates it on few rows).
  void readAtMost(uint64_t rows) override { readAtMost_ = rows; }

 private:
  void openImpl(ExecutionContext& context) override;
  std::optional<Table> nextImpl(ExecutionContext& context) override;

  struct Condition {
    expr::Expression expression;
    std::optional<TypedComparison> typed;  // decides most rows without decoding
  };
  struct Tally {
    uint64_t evaluated = 0;
    uint64_t rejected = 0;
  };
  // What one thread keeps while it tests rows (row_chunks.h): the first
  // serves the calling thread.
  struct Worker {
    expr::Environment environment;
    // Per condition that depends on one variable: its decision by that
    // variable's key (a memoized condition would still be looked up and read).
    std::vector<ValuesByKey<bool>> decisions;
    // The order the conditions are tested in, by the share of rows each
    // rejected so far (reorder), revised every kRowsBetweenReorders rows.
    std::vector<size_t> order;
    std::vector<Tally> tally;
    uint64_t rowsSeen = 0;
  };
  static constexpr uint64_t kRowsBetweenReorders = 256;

  Worker newWorker(ExecutionContext& context) const;
  bool holds(Worker& worker, const Table& batch, size_t row, RowSolution& solution, ExecutionContext& context,
             StopCheck& stop) const;
  bool decision(Worker& worker, size_t condition, const Table& batch, size_t row, RowSolution& solution) const;
  void test(Worker& worker, const Table& batch, size_t begin, size_t end, ExecutionContext& context,
            std::vector<char>& passed, uint64_t wanted) const;
  static void reorder(Worker& worker);
  std::vector<size_t> rowsKept(const Table& batch, ExecutionContext& context);

  OperatorPtr child_;
  std::vector<Condition> conditions_;
  std::string text_;
  std::vector<size_t> slotsRead_;
  bool concurrent_ = true;  // every condition evaluates concurrently
  std::vector<Worker> workers_;
  std::optional<uint64_t> readAtMost_;
  uint64_t emitted_ = 0;
};

}  // namespace gsparql::engine
