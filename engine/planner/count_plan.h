#pragma once
// The plan of COUNT(*) over a BGP (BgpCount): the join order's steps that no
// later step reads go last, and the final ones that the executors count as
// products, without making their rows, are marked in the plan, so that the
// executors, the cost model and EXPLAIN read one decision.
#include "engine/bgp/bound_bgp.h"
#include "engine/bgp/plan.h"

namespace gsparql::engine {

// The same rows in another order: in each component, the steps that could be
// counted as leaves (bgp/counted_leaves.h's countableStep) and are read by no
// later step move to the end, in their order; row estimates follow the new
// order.
// Then ComponentPlan::countedLeavesFrom is set (bgp/counted_leaves.h). Not
// for injective matching, which must see every row.
BgpPlan planForCount(BgpPlan plan, const BoundBgp& bgp);

}  // namespace gsparql::engine
