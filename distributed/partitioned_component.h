#pragma once
// One connected component of a BGP plan over vertices hash-partitioned among
// MPI ranks (docs/distributed.md): each rank extends the rows whose driving
// vertex it owns, and checks each new vertex's other edges where that vertex
// lives, from its own adjacency in both directions. Between the two, an
// exchange ships rows to the rank that owns the vertex they need next. Every
// rank calls it with the same plan (collective); each returns its share of
// the rows.
#include <string>

#include "distributed/row_exchange.h"
#include "distributed/vertex_partition.h"
#include "engine/bgp/bound_bgp.h"
#include "engine/bgp/plan.h"

namespace gsparql {
class GraphStore;
}

namespace gsparql::distributed {

// Why the partitioned run cannot take this component (predicate variables,
// vertices compared with predicates), or empty. Decided from the plan alone,
// so every rank decides alike before any exchange.
std::string unsupportedReason(const engine::ComponentPlan& plan, const engine::BoundBgp& bgp);

engine::IdRows runPartitioned(const engine::ComponentPlan& plan, const engine::BoundBgp& bgp,
                              const GraphStore& store, const VertexPartition& partition,
                              const RowExchange& exchange);

}  // namespace gsparql::distributed
