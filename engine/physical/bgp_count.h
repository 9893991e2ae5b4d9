#pragma once
// COUNT(*) over a basic graph pattern, without a GROUP BY: one row whose
// columns (one per COUNT of the query) all hold the number of the BGP's
// solutions, or, for COUNT(DISTINCT ?v), of the distinct values of one
// vertex variable; the executor counts where the rows are (Executor::count,
// Executor::countDistinct). For COUNT(*) the plan comes from
// planner/count_plan.h: both executors multiply the survivor counts of the
// leaves it marks instead of making their rows.
#include "engine/physical/bgp_leaf.h"

namespace gsparql::engine {

class BgpCount final : public BgpLeaf {
 public:
  // `distinctColumn`: the vertex column of COUNT(DISTINCT ?v); none: COUNT(*).
  BgpCount(BoundBgp bgp, BgpPlan plan, std::vector<std::string> countVariables,
           std::optional<uint32_t> distinctColumn = std::nullopt)
      : BgpLeaf(std::move(bgp), std::move(plan), std::move(countVariables), Output::Count),
        distinctColumn_(distinctColumn) {}
  std::string describe() const override;

 private:
  void openImpl(ExecutionContext& context) override;
  std::optional<Table> nextImpl(ExecutionContext& context) override;

  std::optional<uint32_t> distinctColumn_;
  bool done_ = false;
};

}  // namespace gsparql::engine
