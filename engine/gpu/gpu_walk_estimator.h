#pragma once
// The optimizer's random walks on a GPU (gSWORD, gpu_wander_join.cuh), over
// the adjacency its device caches, so that a query's run finds uploaded what
// its planning walked. Where the walks would not suit the device, it declines
// (ExecutorDeclined, engine/bgp/executor.h) and the placer's estimator walks
// on the CPU instead (placement/fallback_executor.h).
#include <memory>

#include "engine/optimizer/walk_estimator.h"

namespace gsparql::engine {

namespace gpu {
class Device;
}

// Uses `device`, which outlives it, between the calls of its executor.
std::unique_ptr<WalkEstimator> makeGpuWalkEstimator(gpu::Device& device);

}  // namespace gsparql::engine
