#pragma once
// A BGP's plan as the GPU runs it (plain C++): one kernel step per column it
// binds (column_steps.h), each knowing its plan step, and what those steps
// ask of the device: whether it can run them, which adjacency they read.
#include <string>
#include <vector>

#include "engine/bgp/bound_bgp.h"
#include "engine/bgp/plan.h"
#include "engine/gpu/column_steps.h"
#include "engine/gpu/streaming_plan.h"

namespace gsparql {
class GraphStore;
}

namespace gsparql::engine::gpu {

// One kernel step: the column it binds, and the plan step it belongs to.
struct GpuStep {
  ColumnStep step;
  const PlanStep* plan = nullptr;
  bool endsPlanStep = false;  // its rows are the plan step's
};

using ComponentSteps = std::vector<GpuStep>;

ComponentSteps gpuSteps(const ComponentPlan& component, const BoundBgp& bgp);
// Of each component of `plan`, in order.
std::vector<ComponentSteps> gpuSteps(const BgpPlan& plan, const BoundBgp& bgp);

// Why a BGP cannot run on the GPU (empty: it can).
std::string unsupportedReason(const std::vector<ComponentSteps>& components, const BoundBgp& bgp);

// The adjacency (one predicate, one direction) the steps read through the
// graph cache, each once, with its size on the device.
std::vector<AdjacencyUse> adjacencyUses(const std::vector<ComponentSteps>& components, const GraphStore& store);

}  // namespace gsparql::engine::gpu
