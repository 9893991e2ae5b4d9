#pragma once
// Wander Join on the GPU (gSWORD): one thread per walk, every step of a
// component's plan in one kernel, the walks' weights summed per step by
// warps. The same estimator as optimizer/wander_join.h, on the adjacency the
// GPU executor caches; its random numbers differ, its expectation does not.
#include <vector>

#include "engine/bound_bgp.h"
#include "engine/gpu/device_memory.cuh"
#include "engine/gpu/graph_cache.cuh"
#include "engine/optimizer/wander_join.h"
#include "engine/plan.h"

namespace gsparql::engine::gpu {

// Estimates for the first steps of `plan` walks can take on the GPU: those
// that bind no predicate variable and compare no predicate with a vertex.
std::vector<StepEstimate> wanderJoin(DevicePool& pool, GraphCache& cache, const ComponentPlan& plan,
                                     const BoundBgp& bgp, const GraphStore& store, const WalkOptions& options);

}  // namespace gsparql::engine::gpu
