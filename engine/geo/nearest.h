#pragma once
// Lower bounds of geof:distance from envelopes, for the nearest-first
// search that answers ORDER BY geof:distance(?g, constant, unit) LIMIT k
// (docs/geosparql.md#k-nearest): rows are tried in the order of their
// bounds, and once the k-th exact distance found is below the next bound,
// no row left can come before it. GEOS stays behind this header.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/geo/box.h"
#include "engine/geo/unit.h"

namespace gsparql::engine::geo {

class SpatialIndex;

// At most geo::distance(a, b, unit) for every a within `x` and b within `y`
// (CRS84 degrees). In degrees and radians the planar gap between the boxes;
// in metres the great-circle distance on a sphere of the ellipsoid's least
// radius of curvature, a(1 - e^2), from the least latitude and longitude
// gaps, which no geodesic on the ellipsoid (or the mean sphere) undercuts.
double distanceLowerBound(const Box& x, const Box& y, Unit unit);

class NearestBounds {
 public:
  // The bounds of geof:distance(?v, geometry, unit) for ?v's literals, with
  // `geometry` and `unit` terms (rdf/term.h form); nullopt unless the one is
  // a geometry that reads and is not empty and the other a unit (an IRI, or
  // an xsd:anyURI literal as the function reads it).
  static std::optional<NearestBounds> of(std::shared_ptr<const SpatialIndex> index, std::string_view geometry,
                                         std::string_view unit);
  // A lower bound of the distance of literal `id` (a vertex id); -infinity
  // where the index does not hold it: the function decides such a term.
  double lowerBound(uint32_t id) const;
  // The `count` literals of the index with the least bounds (ids ascending),
  // and the least bound of those left out (infinity where none is).
  std::pair<std::vector<uint32_t>, double> nearest(size_t count) const;
  // How many literals the index holds.
  size_t literalCount() const;
  // Whether the index holds every literal of `ids` (ascending).
  bool holdsAll(std::span<const uint32_t> ids) const;

 private:
  NearestBounds(std::shared_ptr<const SpatialIndex> index, Box query, Unit unit)
      : index_(std::move(index)), query_(query), unit_(unit) {}
  std::shared_ptr<const SpatialIndex> index_;
  Box query_;
  Unit unit_;
};

}  // namespace gsparql::engine::geo
