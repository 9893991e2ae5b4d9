#include "support/plans.h"

#include <algorithm>
#include <stdexcept>

#include "engine/optimizer/step_builder.h"

namespace gsparql::test {

engine::ComponentPlan planInOrder(const engine::BoundBgp& bgp, const Catalog& catalog,
                                  const std::vector<std::string>& order) {
  engine::StepBuilder builder(bgp, catalog);
  engine::ComponentPlan plan;
  for (const std::string& name : order) {
    const auto v = std::find_if(bgp.vertices.begin(), bgp.vertices.end(), [&](const auto& b) { return b.name == name; });
    if (v == bgp.vertices.end()) throw std::invalid_argument("planInOrder: no vertex ?" + name);
    const auto vertex = static_cast<uint32_t>(v - bgp.vertices.begin());
    plan.steps.push_back(plan.steps.empty() ? builder.seedStep(vertex) : builder.extendStep(vertex));
  }
  return plan;
}

}  // namespace gsparql::test
