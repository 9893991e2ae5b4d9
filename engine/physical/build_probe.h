#pragma once
// The shape shared by the operators that pair each row of their left input
// with the compatible rows of their right input (join, OPTIONAL, MINUS,
// EXISTS): the right input is collected and indexed on the shared variables
// when the left gives its first batch (never after an empty left), and the
// left streams through batch by batch.
#include <optional>

#include "engine/physical/compatible_rows.h"
#include "engine/physical/operator.h"

namespace gsparql::engine {

class BuildProbe : public Operator {
 public:
  std::vector<const Operator*> children() const override { return {left_.get(), right_.get()}; }

 protected:
  // `keepsRightColumns`: the output has the right input's variables too
  // (join, OPTIONAL), or only the left's (MINUS). `existenceOnly`: a probe
  // asks only whether a compatible right row exists (EXISTS), so where no
  // variable is shared the right input's first row is all that is read.
  BuildProbe(OperatorPtr left, OperatorPtr right, bool keepsRightColumns, double rows, double cost,
             bool existenceOnly = false);

  // Appends to `out` what one left row yields; `key` holds its shared values.
  virtual void probe(const Table& left, size_t row, std::span<const ValueId> key, Table& out,
                     ExecutionContext& context) = 0;

  const Table& right() const { return rightRows_; }
  const CompatibleRows& index() const { return *index_; }
  // For each output column, the right column that fills it where left leaves it unbound.
  const std::vector<std::optional<size_t>>& rightColumnOfOutput() const { return rightOfOutput_; }
  // "on ?a ?b", for describe().
  std::string sharedVariables() const;
  // Called for each right row a probe visits, with the work it took (a
  // condition's nodes): one left row may meet every right row (a product).
  void visited(int64_t work = 1) { (*stop_)(work); }

 private:
  void openImpl(ExecutionContext& context) final;
  std::optional<Table> nextImpl(ExecutionContext& context) final;
  void build(ExecutionContext& context);

  OperatorPtr left_, right_;
  SharedColumns shared_;
  bool existenceOnly_;
  std::vector<std::optional<size_t>> rightOfOutput_;
  Table rightRows_;
  std::optional<CompatibleRows> index_;  // null until built
  std::optional<Table> leftBatch_;
  size_t leftRow_ = 0;
  std::optional<StopCheck> stop_;
};

}  // namespace gsparql::engine
