#pragma once
// ORDER BY geof:distance(?g, constant, unit) under a LIMIT answered through
// the spatial index (docs/geosparql.md#k-nearest): the ORDER BY's input is
// narrowed to the rows that can be among its first ones
// (physical/nearest_candidates.h), and the ORDER BY and LIMIT run as
// written on them.
#include <cstdint>

#include "engine/physical/operator.h"
#include "parser/algebra.h"
#include "storage/graph_store.h"

namespace gsparql::engine {

// `input` (the rows ORDER BY `order` sorts) narrowed to the rows that can be
// among its first `wanted`, where the first key is ascending
// geof:distance(?g, constant geometry, unit) or (constant, ?g, unit) with
// ?g a variable of `input`; else `input` itself.
OperatorPtr nearestCandidates(OperatorPtr input, const sparql::Op& order, uint64_t wanted, const GraphStore& store);

}  // namespace gsparql::engine
