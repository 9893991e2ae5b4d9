#pragma once
// GROUP BY ?v over a basic graph pattern whose aggregates all count its
// solutions (COUNT(*), or COUNT of a variable the BGP always binds): a row
// per value of the vertex variable ?v with its rows, counted where the
// executor finds them (Executor::countByVertex; on the GPU a counter per
// vertex on the device), never handed up as rows. The groups come in the
// order of their vertices' ids on every executor.
#include "engine/physical/bgp_leaf.h"

namespace gsparql::engine {

class BgpGroupCount final : public BgpLeaf {
 public:
  // `key`: ?v's name, its column first; `countVariables`: a column each, all holding the count.
  BgpGroupCount(BoundBgp bgp, BgpPlan plan, uint32_t keyColumn, const std::string& key,
                std::vector<std::string> countVariables);
  std::string describe() const override;

 private:
  void openImpl(ExecutionContext& context) override;
  std::optional<Table> nextImpl(ExecutionContext& context) override;

  Table groups(ExecutionContext& context);

  uint32_t keyColumn_;
  BatchCursor cursor_;
};

}  // namespace gsparql::engine
