#pragma once
// GROUP BY with aggregates (sections 11 and 18.5, Group and Aggregation):
// rows grouped by the keys' values, one output row per group with the keys
// that have a variable and every aggregate. Without keys, all rows are one
// group, which exists even when there are no rows.
#include <memory>

#include "engine/expr/expression.h"
#include "engine/physical/group_index.h"
#include "engine/physical/operator.h"
#include "parser/algebra.h"

namespace gsparql::engine {

class GroupBy final : public Operator {
 public:
  GroupBy(OperatorPtr child, const std::vector<sparql::Binding>& keys, const std::vector<sparql::Binding>& aggregates,
          std::string text, double rows, double cost);
  std::string describe() const override { return "GroupBy " + text_; }
  std::vector<const Operator*> children() const override { return {child_.get()}; }

 private:
  struct Key {
    expr::Expression expression;
    std::optional<size_t> column;  // a plain variable: its column
    bool output;                   // has a variable (GROUP BY ?x or (expr AS ?x))
  };
  struct Aggregate {
    sparql::Expr definition;
    std::optional<expr::Expression> argument;  // none for COUNT(*)
    bool countsRows;                           // COUNT(*) without DISTINCT: no per-row work
    std::optional<size_t> countsBound;         // COUNT(?x) without DISTINCT: ?x's column, counted on ids
    std::optional<size_t> column;              // a plain variable's: its terms read in place
    bool distinctIds;                          // DISTINCT of a plain variable: its ids seen once per group
  };
  struct Group {
    uint64_t rows = 0;
    std::vector<uint64_t> bound;  // per aggregate: the bound values COUNT(?x) counted
    std::vector<std::unique_ptr<expr::Aggregator>> aggregators;
  };

  void openImpl(ExecutionContext& context) override;
  std::optional<Table> nextImpl(ExecutionContext&) override { return cursor_.next(); }
  size_t groupOf(const Table& batch, size_t row, ExecutionContext& context, expr::Solution& solution,
                 expr::Environment& environment);
  void accumulate(size_t groupNumber, const Table& batch, size_t row, ExecutionContext& context,
                  expr::Solution& solution, expr::Environment& environment);
  Group newGroup() const;
  ValueId countTerm(uint64_t count, ExecutionContext& context) const;
  Table finish(ExecutionContext& context);

  OperatorPtr child_;
  std::vector<Key> keys_;
  std::vector<Aggregate> aggregates_;
  std::string text_;
  GroupIndex groupIndex_;
  std::vector<ValueId> key_;  // the current row's key
  std::vector<Group> groups_;
  // Per aggregate with distinctIds: the (group, id) pairs passed on, one
  // term being one id.
  std::vector<GroupIndex> passedOn_;
  uint64_t pairsPassedOn_ = 0;
  BatchCursor cursor_;
  int64_t rowCost_ = 1;  // a row's work for StopCheck: the keys' and arguments' nodes
  // A group's bytes at least, for the memory budget: its key, hash and two
  // index slots, its aggregators (an estimate: most hold a few words).
  uint64_t groupBytes_ = 0;
  static constexpr uint64_t kIndexEntryBytes = 16, kAggregatorBytes = 64;
  static constexpr uint64_t kPairBytes = 2 * sizeof(ValueId) + kIndexEntryBytes;
};

}  // namespace gsparql::engine
