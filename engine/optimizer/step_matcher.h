#pragma once
// What one row meets at a plan step, on the CPU's copy of the adjacency: the
// step's candidates for it, and whether a candidate passes the step's
// checks. The estimators' walks (wander_join.h) and trawling (trawl.h) both
// take steps one row at a time through it.
#include <cstdint>
#include <span>
#include <vector>

#include "engine/bgp/bound_bgp.h"
#include "engine/bgp/plan.h"

namespace gsparql {
class GraphStore;
}

namespace gsparql::engine {

class StepMatcher {
 public:
  StepMatcher(const BoundBgp& bgp, const GraphStore& store) : bgp_(&bgp), store_(&store) {}

  // A step's candidates for one row: a list, or every vertex id below `count`.
  struct Candidates {
    std::span<const uint32_t> list;
    uint64_t count = 0;
    uint32_t operator[](uint64_t i) const { return list.empty() ? static_cast<uint32_t>(i) : list[i]; }
  };
  Candidates candidatesOf(const PlanStep& step, const uint32_t* row) const;
  // Whether `row`, its step's vertex bound, passes the step's checks. Before
  // the first row of a step: prepare(step).
  bool checksHold(const PlanStep& step, const uint32_t* row) const;
  void prepare(const PlanStep& step);

  const BoundBgp& bgp() const { return *bgp_; }
  const GraphStore& store() const { return *store_; }

 private:
  const BoundBgp* bgp_;
  const GraphStore* store_;
  std::vector<uint32_t> predicateVertex_;  // filled when a step compares predicates with vertices
};

}  // namespace gsparql::engine
