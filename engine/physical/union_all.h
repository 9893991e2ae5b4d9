#pragma once
// UNION (section 18.5, Union): the rows of both inputs, each padded with
// unbound cells for the variables only the other binds.
#include "engine/physical/operator.h"

namespace gsparql::engine {

class UnionAll final : public Operator {
 public:
  UnionAll(OperatorPtr left, OperatorPtr right, double rows, double cost);
  std::string describe() const override { return "Union"; }
  std::vector<const Operator*> children() const override { return {left_.get(), right_.get()}; }
  void readAtMost(uint64_t rows) override {
    left_->readAtMost(rows);
    right_->readAtMost(rows);
  }

 private:
  void openImpl(ExecutionContext& context) override;
  std::optional<Table> nextImpl(ExecutionContext& context) override;
  Table widen(const Table& batch, const Operator& from) const;

  OperatorPtr left_, right_;
  bool onRight_ = false;
};

}  // namespace gsparql::engine
