#pragma once
// A basic graph pattern matched by one of the BGP executors (the CPU one or
// the GPU one), with the plan of vertex-at-a-time join steps that both read.
// The leaf of every operator tree that touches the data graph.
#include "engine/physical/bgp_leaf.h"

namespace gsparql::engine {

class BgpScan final : public BgpLeaf {
 public:
  // `columns`: the BGP columns (engine/bgp/bound_bgp.h) the operators above read,
  // named by `variables`; the executor returns only these.
  // `limits`: what the planner limited variables to and why, for EXPLAIN
  // ("?p to 99 of 1000 terms by a FILTER"); empty: nothing.
  BgpScan(BoundBgp bgp, BgpPlan plan, std::vector<uint32_t> columns, std::vector<std::string> variables,
          std::string limits = {});
  std::string describe() const override;
  void readAtMost(uint64_t rows) override { rowLimit_ = std::min(rows, rowLimit_.value_or(rows)); }

 private:
  void openImpl(ExecutionContext& context) override;
  std::optional<Table> nextImpl(ExecutionContext& context) override;
  // The executor's table as value ids.
  Table toValues(ExecutionContext& context);

  std::vector<uint32_t> columns_;
  // The columns the executor returns: columns_ without the variables that
  // a filter or VALUES fixed to a constant, whose cells are that constant.
  std::vector<uint32_t> executorColumns_;
  BgpCall call_;                       // what the executor was asked, kept for the cursor
  std::unique_ptr<RowCursor> cursor_;  // the executor's rows, unless a constant is absent
  IdColumns rows_;                     // the executor's answer or batch, until it is handed out
  std::optional<uint64_t> rowLimit_;  // the most rows read above
  std::string limits_;
};

}  // namespace gsparql::engine
