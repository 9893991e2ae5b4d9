#pragma once
// Plans built by hand, as the planner builds their steps, for tests that
// need one order whatever an orderer would choose.
#include <string>
#include <vector>

#include "engine/bgp/bound_bgp.h"
#include "engine/bgp/plan.h"
#include "storage/catalog.h"

namespace gsparql::test {

// The plan of `bgp` that binds the vertices named in `order` one after
// another: the first as a seed, each next from those bound before it.
engine::ComponentPlan planInOrder(const engine::BoundBgp& bgp, const Catalog& catalog,
                                  const std::vector<std::string>& order);

}  // namespace gsparql::test
