#pragma once
// BIND and SELECT expressions (section 18.5, Extend): one more column per
// binding, the expression's value, unbound where it raises an error.
// Consecutive bindings are one operator, evaluated in order on each row, so
// that BNODE("x") gives one blank node per solution across them. A variable
// the input already has gets its column overwritten instead (the parser
// refuses such queries; a plan may still carry one column of that name).
#include <cstdint>
#include <optional>
#include <unordered_map>

#include "engine/expr/expression.h"
#include "engine/physical/operator.h"
#include "engine/physical/values_by_key.h"

namespace gsparql::engine {

class RowSolution;

struct ExtendBinding {
  std::string variable;
  sparql::Expr expression;
  std::string text;  // for EXPLAIN
};

class Extend final : public Operator {
 public:
  Extend(OperatorPtr child, const std::vector<ExtendBinding>& bindings, double rows, double cost);
  std::string describe() const override;
  std::vector<const Operator*> children() const override { return {child_.get()}; }
  void readAtMost(uint64_t rows) override { child_->readAtMost(rows); }

 private:
  struct Compiled {
    expr::Expression expression;
    size_t target;  // the column it fills
    std::string text;
  };
  struct TermId {
    ValueId id = kUndefined;
    size_t row = SIZE_MAX;  // while `id` is undefined: the batch's row that numbers it
  };
  // What one thread keeps while it evaluates rows (row_chunks.h): the first
  // serves the calling thread.
  struct Worker {
    expr::Environment environment;
    // Per binding whose value depends on one variable: the id of its value,
    // so that a BIND over many rows of few terms neither writes nor looks up
    // a term a row.
    std::vector<ValuesByKey<ValueId>> idsByKey;
    // In valuesOnThreads: the row whose term is to be numbered, by key.
    std::unordered_map<ValueId, size_t> unnumberedRowOfKey;
    // Per binding, the id of each value by its term, so that many keys of
    // few values (IF(BOUND(?e), "yes", "no")) look each value up once, not
    // once a row; within a batch, a value not numbered yet has the first row
    // that holds it instead (TermId::row).
    std::vector<expr::KeyedValues<TermId, std::string>> idsByTerm;
  };
  // In valuesOnThreads, what a chunk of rows leaves to the calling thread:
  // the terms new to the query, to number in row order, and the rows whose
  // value is another row's.
  struct Unnumbered {
    size_t row, slot;
    ValueId key;
    std::string term;
    TermId* kept;  // where idsByTerm keeps it, if it does
  };
  struct ChunkValues {
    std::vector<Unnumbered> unnumbered;
    std::vector<std::pair<size_t, size_t>> sameAs;
  };
  static constexpr size_t kNoRow = SIZE_MAX;
  Worker newWorker(ExecutionContext& context) const;
  ValueId valueAt(size_t binding, const Table& batch, size_t row, RowSolution& solution, ExecutionContext& context);
  std::vector<ValueId> valuesHere(size_t binding, const Table& batch, ExecutionContext& context);
  std::vector<ValueId> valuesOnThreads(size_t binding, const Table& batch, ExecutionContext& context);
  void valueOnThread(size_t binding, const Table& batch, size_t r, RowSolution& solution, Worker& worker, size_t slot,
                     ExecutionContext& context, ChunkValues& chunk, std::vector<ValueId>& values);

  void openImpl(ExecutionContext& context) override;
  std::optional<Table> nextImpl(ExecutionContext& context) override;

  OperatorPtr child_;
  std::vector<Compiled> bindings_;
  bool concurrent_ = true;  // every binding evaluates concurrently
  std::vector<Worker> workers_;
  size_t row_ = 0;  // the row valuesHere is at, for BNODE(label)
};

}  // namespace gsparql::engine
