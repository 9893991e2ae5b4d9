#pragma once
// What the leaves that match a basic graph pattern share: the BGP, its plan
// of vertex-at-a-time join steps that both executors read, the executor's
// profile of a run, and EXPLAIN's lines for the steps. BgpScan hands the
// rows out; BgpCount only counts them, BgpGroupCount per value of a variable.
#include <algorithm>
#include <string>
#include <vector>

#include "engine/bgp/bound_bgp.h"
#include "engine/bgp/plan.h"
#include "engine/physical/operator.h"

namespace gsparql::engine {

class BgpLeaf : public Operator {
 public:
  std::vector<const Operator*> children() const override { return {}; }
  std::vector<std::string> details(const GraphStore& store) const override;

  const BoundBgp& bgp() const { return bgp_; }
  const BgpPlan& plan() const { return plan_; }
  const ExecutionProfile& executionProfile() const { return profile_; }

 protected:
  static double estimatedRowsOf(const BoundBgp& bgp, const BgpPlan& plan) {
    return bgp.hasAbsentConstant ? 0 : plan.estimatedRows();
  }

  // Its estimated cost is the BGP's rows; so are its estimated rows, unless
  // it gives one row of counts, or a row per group (a tenth of the rows, as
  // the planner guesses for GroupBy).
  enum class Output { Rows, Count, Groups };
  BgpLeaf(BoundBgp bgp, BgpPlan plan, std::vector<std::string> variables, Output output)
      : Operator(std::move(variables), estimatedOutput(bgp, plan, output), estimatedRowsOf(bgp, plan)),
        bgp_(std::move(bgp)), plan_(std::move(plan)) {}
  static double estimatedOutput(const BoundBgp& bgp, const BgpPlan& plan, Output output) {
    const double rows = estimatedRowsOf(bgp, plan);
    return output == Output::Count ? 1 : output == Output::Groups ? std::max(1.0, rows / 10) : rows;
  }

  // For describe(): " on the <executor> executor", and that no row can match where a constant is absent.
  std::string whereItRan() const {
    std::string text = executor_.empty() ? "" : " on the " + executor_ + " executor";
    if (bgp_.hasAbsentConstant) text += ", a constant is absent from the data: no solutions";
    return text;
  }

  BoundBgp bgp_;
  BgpPlan plan_;
  ExecutionProfile profile_;
  std::string executor_;  // the executor's name, once it ran
};

// The first BGP leaf of an operator tree, depth first; nullptr if none.
const BgpLeaf* firstBgpLeaf(const Operator& root);

// The notes of the BGP executors in an operator tree (e.g. why the GPU
// executor handed a BGP to the CPU one), one per line.
std::string executorNotes(const Operator& root);

}  // namespace gsparql::engine
