#include "engine/gpu/gpu_steps.h"

#include <algorithm>
#include <set>

#include "engine/gpu/join_step.cuh"
#include "storage/graph_store.h"

namespace gsparql::engine::gpu {

ComponentSteps gpuSteps(const ComponentPlan& component, const BoundBgp& bgp) {
  std::vector<bool> predicateBound(bgp.predicateVariables.size(), false);
  ComponentSteps out;
  for (const PlanStep& planStep : component.steps) {
    std::vector<ColumnStep> steps = columnSteps(planStep, bgp, predicateBound);
    for (size_t i = 0; i < steps.size(); ++i) out.push_back({std::move(steps[i]), &planStep, i + 1 == steps.size()});
  }
  return out;
}

std::vector<ComponentSteps> gpuSteps(const BgpPlan& plan, const BoundBgp& bgp) {
  std::vector<ComponentSteps> steps;
  for (const ComponentPlan& component : plan.components) steps.push_back(gpuSteps(component, bgp));
  return steps;
}

std::string unsupportedReason(const std::vector<ComponentSteps>& components, const BoundBgp& bgp) {
  if (bgp.columnCount() > kMaxColumns) return "more than 32 query vertices and predicate variables";
  for (const auto& steps : components) {
    for (const GpuStep& s : steps) {
      const size_t most = std::max({s.step.adjacencyProbes.size(), s.step.pairProbes.size(),
                                    s.step.predicateVertexProbes.size()});
      if (most > kMaxChecks) return "more than 8 edges checked in one step";
    }
  }
  return {};
}

std::vector<AdjacencyUse> adjacencyUses(const std::vector<ComponentSteps>& components, const GraphStore& store) {
  std::set<AdjacencyId> ids;
  for (const auto& steps : components) {
    for (const GpuStep& s : steps) {
      if (s.step.source == ColumnSource::PredicateKeys || s.step.source == ColumnSource::Neighbours) {
        ids.insert({s.step.direction, s.step.predicate});
      }
      for (const AdjacencyProbe& p : s.step.adjacencyProbes) ids.insert({p.direction, p.predicate});
    }
  }
  std::vector<AdjacencyUse> uses;
  for (const AdjacencyId& id : ids) {
    uses.push_back({id, wholeBytes(store.adjacency(id.first).predicate(id.second))});
  }
  return uses;
}

}  // namespace gsparql::engine::gpu
