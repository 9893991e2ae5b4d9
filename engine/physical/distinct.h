#pragma once
// DISTINCT and REDUCED (section 18.5): the first occurrence of each row, in
// order. Equal ids are equal terms, so rows are compared without decoding.
#include "engine/physical/operator.h"
#include "engine/physical/row_set.h"

namespace gsparql::engine {

class Distinct final : public Operator {
 public:
  Distinct(OperatorPtr child, bool reduced, double rows, double cost);
  std::string describe() const override { return reduced_ ? "Reduced" : "Distinct"; }
  std::vector<const Operator*> children() const override { return {child_.get()}; }

 private:
  void openImpl(ExecutionContext& context) override;
  std::optional<Table> nextImpl(ExecutionContext& context) override;

  OperatorPtr child_;
  bool reduced_;
  RowSet seen_;
};

}  // namespace gsparql::engine
