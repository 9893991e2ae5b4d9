#pragma once
// ORDER BY geof:distance(?g, constant, unit) under a LIMIT answered through
// the spatial index (docs/geosparql.md#k-nearest): the ORDER BY's input is
// narrowed to the rows that can be among its first ones
// (physical/nearest_candidates.h), and the ORDER BY and LIMIT run as
// written on them. The planner reads the key through the BINDs between
// (ORDER BY ?d over BIND(geof:distance(...) AS ?d)) and narrows the rows
// below them, so the BINDs are evaluated on the few rows kept. Where the
// input extends a BGP (through FILTERs, OPTIONALs' left sides, BINDs) in
// which ?g can only be bound to literals the index holds (the objects of a
// predicate that has no others), it is also planned with ?g limited to the
// nearest literals, tried first; where those give too few rows (a FILTER or
// the BGP's other patterns drop most), it is planned again while the query
// runs with more of them (NearestCandidates::Wider).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/physical/operator.h"
#include "parser/algebra.h"
#include "storage/graph_store.h"

namespace gsparql::engine {

// The ORDER BY's input planned with `variable` limited to vertex ids
// (ascending); nullptr where the planner cannot. Called while planning and
// while the query runs.
using LimitedInput = std::function<OperatorPtr(const std::string& variable, const std::vector<uint32_t>& ids)>;

// `input` (rows in data graph `graph`) narrowed to the rows that can be
// among the first `wanted` of ORDER BY `first` (and any keys after it),
// where `first` is ascending geof:distance(?g, constant geometry, unit) or
// (constant, ?g, unit) with ?g a variable of `input`; else `input` itself.
// `pattern`: the BGP every row of `input` extends, where there is one (then
// `limited` may limit it).
OperatorPtr nearestCandidates(OperatorPtr input, const sparql::OrderKey& first, const sparql::Op* pattern,
                              uint64_t wanted, const GraphStore& store, uint32_t graph, LimitedInput limited);

}  // namespace gsparql::engine
