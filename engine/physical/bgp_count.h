#pragma once
// COUNT(*) over a basic graph pattern, without a GROUP BY: one row whose
// columns (one per COUNT of the query) all hold the number of the BGP's
// solutions, which the executor counts where the rows are (Executor::count):
// the CPU executor multiplies the candidate counts of a plan's last,
// independent steps instead of making their rows.
#include "engine/physical/bgp_leaf.h"

namespace gsparql::engine {

class BgpCount final : public BgpLeaf {
 public:
  BgpCount(BoundBgp bgp, BgpPlan plan, std::vector<std::string> countVariables)
      : BgpLeaf(std::move(bgp), std::move(plan), std::move(countVariables), Output::Count) {}
  std::string describe() const override;

 private:
  void openImpl(ExecutionContext& context) override;
  std::optional<Table> nextImpl(ExecutionContext& context) override;

  bool done_ = false;
};

}  // namespace gsparql::engine
