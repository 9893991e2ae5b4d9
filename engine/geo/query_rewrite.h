#pragma once
// GeoSPARQL's query rewrite extension (1.0, section 9; Req 28-30): a triple
// pattern whose predicate is a topological property (geo:sfWithin,
// geo:ehMeet, geo:rcc8po, ...) also matches where no such triple is stored,
// when the geometries of its two ends stand in the relation. An end's
// geometry is its own geo:asWKT or geo:asGML literal (a geometry) or that of
// its geo:hasDefaultGeometry (a feature), so the pattern becomes
//
//   SELECT DISTINCT <its variables> {
//     { S geo:rel O } UNION
//     { S geo:hasDefaultGeometry?/(geo:asWKT|geo:asGML) ?w1 .
//       O geo:hasDefaultGeometry?/(geo:asWKT|geo:asGML) ?w2 .
//       FILTER(geof:rel(?w1, ?w2)) } }
//
// joined with the rest of its BGP (a FILTER EXISTS of the same when both ends
// are constants). DISTINCT because a relation between two resources either
// holds or not, however many serializations show it, as in Jena's rewrite.
// A pattern with a blank node at an end is left alone: the blank node would
// lose its link to the rest of the BGP.
#include "parser/algebra.h"

namespace gsparql::engine::geo {

// `query` with every such pattern rewritten; the same pointer when none is there.
sparql::OpPtr rewriteSpatialPredicates(const sparql::OpPtr& pattern);

}  // namespace gsparql::engine::geo
