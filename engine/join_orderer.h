#pragma once
// Chooses the order in which query vertices are bound. One interface, so the
// sampling-based optimizer can replace the statistics heuristic later.
#include <memory>

#include "engine/bound_bgp.h"
#include "engine/plan.h"
#include "storage/catalog.h"

namespace gsparql::engine {

class JoinOrderer {
 public:
  virtual ~JoinOrderer() = default;
  virtual BgpPlan plan(const BoundBgp& bgp, const Catalog& catalog) const = 0;
};

// SGSI's heuristic: start from the vertex with the fewest candidates per
// incident edge, then repeatedly add the neighbour reached through the rarest
// predicate (constants first), so intermediate tables stay small.
std::unique_ptr<JoinOrderer> makeStatisticsOrderer();

}  // namespace gsparql::engine
