#pragma once
// COUNT(*) over a basic graph pattern, without a GROUP BY: one row whose
// columns (one per COUNT of the query) all hold the number of the BGP's
// solutions, or, for COUNT(DISTINCT ?v), of the distinct values of one
// vertex variable; the executor counts where the rows are (Executor::count,
// Executor::countDistinct). For COUNT(*)
// both executors multiply the survivor counts of a plan's last, independent
// steps (leaves) instead of making their rows, and the plan puts every step
// that no later step reads last (leavesLast), so that as many as possible
// are leaves.
#include "engine/physical/bgp_leaf.h"

namespace gsparql::engine {

class BgpCount final : public BgpLeaf {
 public:
  // `distinctColumn`: the vertex column of COUNT(DISTINCT ?v); none: COUNT(*).
  BgpCount(BoundBgp bgp, BgpPlan plan, std::vector<std::string> countVariables,
           std::optional<uint32_t> distinctColumn = std::nullopt)
      : BgpLeaf(std::move(bgp), leavesLast(std::move(plan)), std::move(countVariables), Output::Count),
        distinctColumn_(distinctColumn) {}
  std::string describe() const override;
  // The same rows in another order: in each component, the steps that draw a
  // vertex's neighbours, bind no predicate variable and are read by no later
  // step move to the end, in their order. Row estimates follow the new order.
  static BgpPlan leavesLast(BgpPlan plan);

 private:
  void openImpl(ExecutionContext& context) override;
  std::optional<Table> nextImpl(ExecutionContext& context) override;

  std::optional<uint32_t> distinctColumn_;
  bool done_ = false;
};

}  // namespace gsparql::engine
