#pragma once
// The rule of a count's leaves, for every executor and the cost model: the
// final steps of a component's plan whose rows, for each row of the steps
// before them, are the product of their candidate counts, so that COUNT(*)
// multiplies those counts instead of making the rows.
#include <cstddef>

#include "engine/bgp/bound_bgp.h"
#include "engine/bgp/plan.h"

namespace gsparql::engine {

// The first of those steps (steps.size() where there are none). Each draws
// its vertex's neighbours through an edge whose predicate is a constant,
// checks only edges with constant predicates to other vertices (no
// self-loop, no predicate compared with a vertex), and reads only vertices
// bound before the first of them: the leaves of a star, the last vertex of a
// path. Under homomorphisms only: injective matching must see every row.
size_t countedLeavesFrom(const ComponentPlan& plan, const BoundBgp& bgp);

// Whether `step` could be such a leaf by itself: its rows for a row are its
// candidates that pass its checks, found by intersecting lists alone.
bool countableStep(const PlanStep& step, const BoundBgp& bgp);
// Whether `step` reads `vertex` from the row (its driver's known end, a
// check's, or a predicate compared with it).
bool readsVertex(const PlanStep& step, uint32_t vertex);

}  // namespace gsparql::engine
