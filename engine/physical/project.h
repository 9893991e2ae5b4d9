#pragma once
// SELECT's projection (section 18.5, Project): the listed variables in their
// order; a variable the pattern never binds is an unbound column.
#include "engine/physical/operator.h"

namespace gsparql::engine {

class Project final : public Operator {
 public:
  Project(OperatorPtr child, std::vector<std::string> variables);
  std::string describe() const override;
  std::vector<const Operator*> children() const override { return {child_.get()}; }
  void readAtMost(uint64_t rows) override { child_->readAtMost(rows); }

 private:
  void openImpl(ExecutionContext& context) override { child_->open(context); }
  std::optional<Table> nextImpl(ExecutionContext& context) override;

  OperatorPtr child_;
  std::vector<std::optional<size_t>> sources_;
};

}  // namespace gsparql::engine
