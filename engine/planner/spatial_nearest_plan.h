#pragma once
// ORDER BY geof:distance(?g, constant, unit) under a LIMIT answered through
// the spatial index (docs/geosparql.md#k-nearest): the ORDER BY's input is
// narrowed to the rows that can be among its first ones
// (physical/nearest_candidates.h), and the ORDER BY and LIMIT run as
// written on them. Where the input is a BGP in which ?g can only be bound to
// literals the index holds (the objects of a predicate that has no others),
// it is also planned with ?g limited to the nearest literals, tried first.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/physical/operator.h"
#include "parser/algebra.h"
#include "storage/graph_store.h"

namespace gsparql::engine {

// The ORDER BY's input planned with `variable` limited to vertex ids
// (ascending); nullptr where the planner cannot.
using LimitedInput = std::function<OperatorPtr(const std::string& variable, const std::vector<uint32_t>& ids)>;

// `input` (the rows ORDER BY `order` sorts, in data graph `graph`) narrowed
// to the rows that can be among its first `wanted`, where the first key is
// ascending geof:distance(?g, constant geometry, unit) or (constant, ?g,
// unit) with ?g a variable of `input`; else `input` itself.
OperatorPtr nearestCandidates(OperatorPtr input, const sparql::Op& order, uint64_t wanted, const GraphStore& store,
                              uint32_t graph, const LimitedInput& limited);

}  // namespace gsparql::engine
