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
  // The groups whose keys hash to one part of the hash space. A group's rows
  // all go to one partition, in input order, so the partitions are
  // aggregated at once on the query's threads (row_chunks.h) and each group
  // sees its rows as one thread would show them: the same sums, the same
  // GROUP_CONCAT, the same SAMPLE. A group's first row orders the output.
  struct Partition {
    Partition(size_t keys, size_t aggregates) : index(keys), passedOn(aggregates, GroupIndex(2)) {}
    GroupIndex index;
    std::vector<Group> groups;
    std::vector<uint64_t> firstRow;  // per group: the number of the input row that made it
    // Per aggregate with distinctIds: the (group, id) pairs passed on, one
    // term being one id.
    std::vector<GroupIndex> passedOn;
    uint64_t pairsPassedOn = 0;
  };

  void openImpl(ExecutionContext& context) override;
  std::optional<Table> nextImpl(ExecutionContext&) override { return cursor_.next(); }
  size_t partitionsFor() const;
  void aggregate(const Table& batch, ExecutionContext& context);
  // Aggregates the rows of `batch` in partition `part` (all rows where
  // `partOf` is empty).
  void aggregateRows(size_t part, const Table& batch, const std::vector<uint8_t>& partOf, ExecutionContext& context,
                     expr::Environment& environment);
  size_t groupOf(Partition& partition, std::vector<ValueId>& key, const Table& batch, size_t row,
                 ExecutionContext& context, expr::Solution& solution, expr::Environment& environment) const;
  void accumulate(Partition& partition, size_t groupNumber, const Table& batch, size_t row, expr::Solution& solution,
                  expr::Environment& environment) const;
  Group newGroup() const;
  ValueId countTerm(uint64_t count, ExecutionContext& context) const;
  Table finish(ExecutionContext& context);

  OperatorPtr child_;
  std::vector<Key> keys_;
  std::vector<Aggregate> aggregates_;
  std::string text_;
  std::vector<size_t> slotsRead_;  // by the keys and the aggregates' arguments
  bool concurrent_ = true;         // every key is a variable and every argument evaluates concurrently
  std::vector<Partition> partitions_;
  std::vector<expr::Environment> environments_;  // per thread slot
  uint64_t rowsBefore_ = 0;                      // the input rows of the batches aggregated
  BatchCursor cursor_;
  int64_t rowCost_ = 1;  // a row's work for StopCheck: the keys' and arguments' nodes
  // A group's bytes at least, for the memory budget: its key, hash and two
  // index slots, its first row, its aggregators (an estimate: most hold a
  // few words).
  uint64_t groupBytes_ = 0;
  static constexpr uint64_t kIndexEntryBytes = 16, kAggregatorBytes = 64;
  static constexpr uint64_t kPairBytes = 2 * sizeof(ValueId) + kIndexEntryBytes;
};

}  // namespace gsparql::engine
