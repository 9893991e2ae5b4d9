#pragma once
// UNION (section 18.5, Union): the rows of each input in turn, each padded
// with unbound cells for the variables only other inputs bind. One operator
// for a chain of UNIONs, so that a row is widened once, not once per UNION
// above it (a chain of n makes each row pass n operators otherwise).
#include <vector>

#include "engine/physical/operator.h"

namespace gsparql::engine {

class UnionAll final : public Operator {
 public:
  // At least one input.
  explicit UnionAll(std::vector<OperatorPtr> inputs);
  // The inputs of `union_` (a UnionAll) or `union_` itself, to make a UnionAll of more.
  static std::vector<OperatorPtr> inputsOf(OperatorPtr union_);

  std::string describe() const override { return "Union"; }
  std::vector<const Operator*> children() const override;
  void readAtMost(uint64_t rows) override {
    for (const OperatorPtr& input : inputs_) input->readAtMost(rows);
  }

 private:
  void openImpl(ExecutionContext& context) override;
  std::optional<Table> nextImpl(ExecutionContext& context) override;
  Table widen(Table batch, size_t input) const;

  std::vector<OperatorPtr> inputs_;
  // Per input, the column of each of the union's variables (nullopt: unbound).
  std::vector<std::vector<std::optional<size_t>>> sources_;
  size_t current_ = 0;
};

}  // namespace gsparql::engine
