#pragma once
// OPTIONAL (section 18.5, LeftJoin): each left row merged with every
// compatible right row for which the OPTIONAL's FILTER holds on the merged
// row, or kept alone when there is none.
#include <optional>

#include "engine/expr/expression.h"
#include "engine/physical/build_probe.h"

namespace gsparql::engine {

class LeftJoin final : public BuildProbe {
 public:
  // `condition`: the conjunction of the OPTIONAL group's filters, if any.
  LeftJoin(OperatorPtr left, OperatorPtr right, std::vector<sparql::Expr> condition, double rows, double cost);
  std::string describe() const override;

 private:
  void probe(const Table& left, size_t row, std::span<const ValueId> key, Table& out,
             ExecutionContext& context) override;

  std::vector<expr::Expression> condition_;
  int64_t conditionCost_ = 1;  // a visit's work: a row, and the condition's nodes
  Table merged_;
  std::optional<expr::Environment> environment_;  // one merged row, on which the condition is evaluated
};

}  // namespace gsparql::engine
