#pragma once
// FILTER EXISTS and FILTER NOT EXISTS as a semi- and an anti-join (section
// 18.6): the pattern's solutions are computed once and indexed on the
// variables it shares with the input, and an input row is kept when some
// solution is compatible with it (EXISTS) or none is (NOT EXISTS). The
// planner picks this operator only where it gives what substitution gives
// (planner/exists_join_plan.h); elsewhere Filter substitutes row by row.
#include "engine/physical/build_probe.h"

namespace gsparql::engine {

class ExistsJoin final : public BuildProbe {
 public:
  // `negated`: NOT EXISTS (an anti-join); otherwise EXISTS (a semi-join).
  ExistsJoin(OperatorPtr input, OperatorPtr pattern, bool negated, double rows, double cost);
  std::string describe() const override;

 private:
  void probe(const Table& left, size_t row, std::span<const ValueId> key, Table& out,
             ExecutionContext& context) override;

  const bool negated_;
};

}  // namespace gsparql::engine
