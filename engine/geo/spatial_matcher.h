#pragma once
// The geometry side of an indexed spatial join (docs/geosparql.md#spatial-joins):
// the pairs of terms in a geof: relation that needs a common point
// (impliesIntersection). The terms of one side are added, the first probe
// indexes their envelopes (GEOS's STRtree), and each probe term meets the
// added terms whose envelopes meet its own; the exact relation decides
// each of those, as the function would. GEOS stays behind this header.
//
// A term that is no geometry literal that reads matches nothing (the
// function on it is an error); an empty geometry has no envelope and shares
// no point, so it is tried against the empty ones only (sfEquals holds
// between two empties).
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>

#include "engine/geo/box.h"
#include "engine/geo/point_locator.h"

namespace gsparql::engine::geo {

class SpatialMatcher {
 public:
  // `functionIri`: the relation's geof: IRI term (impliesIntersection holds
  // of it); `addedFirst`: whether the added terms are its first argument.
  SpatialMatcher(std::string_view functionIri, bool addedFirst);
  ~SpatialMatcher();
  SpatialMatcher(const SpatialMatcher&) = delete;
  SpatialMatcher& operator=(const SpatialMatcher&) = delete;

  // Adds a term under the number `item`; false (nothing added) where it is no geometry.
  bool add(uint32_t item, std::string_view term);
  // Whether a geometry whose envelope is `box` can be in the relation with
  // an added term: a test before reading a probe term whose envelope the
  // store's spatial index knows already.
  bool mayMatch(const Box& box);
  // Calls `match` with the item of every added term in the relation with `term`.
  void probe(std::string_view term, const std::function<void(uint32_t item)>& match);

  // Point probes placed in bulk (a PointLocator's, geo/point_locator.h):
  // the added terms as shapes, the s-th non-empty one shape s, where every
  // one is a polygon or multipolygon and where a point lies decides the
  // relation (sfIntersects; sfWithin of the probe; sfContains of the added
  // term), as GEOS's prepared predicates decide it; nullopt otherwise.
  std::optional<RingSet> pointShapes() const;
  uint32_t itemOfShape(uint32_t shape) const;
  // Whether a point probe placed `place` in shape `shape` is in the
  // relation with it; GEOS decides an Undecided place, reading the probe's
  // term (`term()`: asked only then; read once for a point's pairs in a row).
  bool holdsForPoint(uint32_t shape, PointPlace place, const std::function<std::string_view()>& term);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gsparql::engine::geo
