#pragma once
// DISTINCT and REDUCED (section 18.5): the first occurrence of each row, in
// order. Equal ids are equal terms, so rows are compared without decoding.
#include <unordered_set>

#include "engine/physical/operator.h"

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
  std::unordered_set<std::string> seen_;  // rows as bytes of their ids
};

}  // namespace gsparql::engine
