#pragma once
// The BGP executor of an MPI job whose ranks each own a hash partition of the
// vertices (docs/distributed.md). Every rank runs the same query through
// the same engine (same parse, same plan: the statistics orderer, which is
// deterministic), so each call of this executor happens on every rank at
// the same point: it runs the plan's components partitioned
// (partitioned_component.h) and gives every rank all the rows, which the
// operators above then treat as one process would. What it cannot run
// (predicate variables, injective matching) it declines, on every rank alike.
#include <memory>

#include "distributed/row_exchange.h"
#include "engine/bgp/executor.h"

namespace gsparql::distributed {

std::unique_ptr<engine::Executor> makePartitionedExecutor(const RowExchange& exchange);

}  // namespace gsparql::distributed
