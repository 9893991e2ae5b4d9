#pragma once
// Wander Join on the GPU (gSWORD): every step of a component's plan in one
// kernel, each lane streaming walks one after another (a walk that dies
// makes room for the next at once), the walks' weights summed per step by
// lanes and then by warps. The same estimator as optimizer/wander_join.h, on the adjacency the
// GPU executor caches; its random numbers differ, its expectation does not.
#include <span>
#include <vector>

#include "engine/bgp/bound_bgp.h"
#include "engine/bgp/plan.h"
#include "engine/gpu/device_memory.cuh"
#include "engine/gpu/graph_cache.cuh"
#include "engine/optimizer/wander_join.h"

namespace gsparql::engine::gpu {

// Estimates for the first steps of each plan walks can take on the GPU:
// those that bind no predicate variable and compare no predicate with a
// vertex. All plans in one launch (a row of blocks per plan), each with
// options.walks walks and the random numbers it would have alone.
std::vector<std::vector<StepEstimate>> wanderJoin(DevicePool& pool, GraphCache& cache,
                                                  std::span<const ComponentPlan> plans, const BoundBgp& bgp,
                                                  const GraphStore& store, const WalkOptions& options);

}  // namespace gsparql::engine::gpu
