#pragma once
// GROUP BY ?x with COUNT(*) (or COUNT of a variable of the pattern) over one
// triple pattern `?x <p> ?y` (or `?y <p> ?x`): a group per vertex with p on
// ?x's side, counting its degree there, read from the adjacency without
// making a row of the pattern (QLever answers such counts from its index's
// metadata). The planner (planner.cpp, planDegreeCount) decides when the
// degrees are the counts.
#include "engine/physical/operator.h"
#include "storage/pcsr_format.h"

namespace gsparql::engine {

class DegreeCount final : public Operator {
 public:
  // `predicate`: the pattern's predicate in the BGP's graph (none: absent
  // from it, no groups); `direction`: Out where ?x is the subject.
  DegreeCount(std::string keyVariable, std::vector<std::string> countVariables, std::optional<uint32_t> predicate,
              pcsr::Direction direction, std::string predicateText, double groups);
  std::string describe() const override;
  std::vector<const Operator*> children() const override { return {}; }

 private:
  void openImpl(ExecutionContext& context) override;
  std::optional<Table> nextImpl(ExecutionContext& context) override;
  Table groups(ExecutionContext& context) const;

  std::optional<uint32_t> predicate_;
  pcsr::Direction direction_;
  std::string predicateText_;
  BatchCursor cursor_;
  bool done_ = false;
};

}  // namespace gsparql::engine
