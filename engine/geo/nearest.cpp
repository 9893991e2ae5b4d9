#include "engine/geo/nearest.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "engine/geo/geometry.h"
#include "engine/geo/spatial_index.h"
#include "rdf/term_parts.h"

namespace gsparql::engine::geo {
namespace {

// WGS 84's least radius of curvature, the meridian's at the equator: a(1 - e^2).
constexpr double kWgs84A = 6'378'137.0, kWgs84F = 1 / 298.257223563;
constexpr double kLeastRadius = kWgs84A * (1 - kWgs84F * (2 - kWgs84F));
// The bounds are computed otherwise than the distances: a margin for rounding.
constexpr double kMargin = 1 - 1e-9;

double gap(double aMin, double aMax, double bMin, double bMax) { return std::max({0.0, aMin - bMax, bMin - aMax}); }

double haversine(double radians) { return std::pow(std::sin(radians / 2), 2); }

bool geographic(const Box& b) { return b.minX >= -180 && b.maxX <= 180 && b.minY >= -90 && b.maxY <= 90; }

// hav(d) = hav(dLat) + cos(lat1) cos(lat2) hav(dLon): each term at least
// its value at the least gaps and the greatest absolute latitude.
double metresBound(const Box& x, const Box& y) {
  if (!geographic(x) || !geographic(y)) return 0;  // not degrees of the Earth: no bound but 0
  const double dLat = gap(x.minY, x.maxY, y.minY, y.maxY);
  const double around = 360 - (std::max(x.maxX, y.maxX) - std::min(x.minX, y.minX));  // across the antimeridian
  const double dLon = std::max(0.0, std::min(gap(x.minX, x.maxX, y.minX, y.maxX), around));
  const double lat = std::max({std::abs(x.minY), std::abs(x.maxY), std::abs(y.minY), std::abs(y.maxY)});
  const double h = haversine(dLat * kRadian) + std::pow(std::cos(lat * kRadian), 2) * haversine(dLon * kRadian);
  return 2 * kLeastRadius * std::asin(std::min(1.0, std::sqrt(h)));
}

// The unit of a term as geof:distance reads it.
std::optional<Unit> unitOfTerm(std::string_view term) {
  rdf::TermSplitter splitter;
  const rdf::TermParts& parts = splitter.split(term);
  const bool anyUri = parts.kind == rdf::TermKind::Literal && parts.datatype == "http://www.w3.org/2001/XMLSchema#anyURI";
  if (parts.kind != rdf::TermKind::Iri && !anyUri) return std::nullopt;
  try {
    return unitOf(parts.value);
  } catch (const GeoError&) {
    return std::nullopt;
  }
}

}  // namespace

double distanceLowerBound(const Box& x, const Box& y, Unit unit) {
  if (unit == Unit::Metre) return metresBound(x, y) * kMargin;
  const double planar = std::hypot(gap(x.minX, x.maxX, y.minX, y.maxX), gap(x.minY, x.maxY, y.minY, y.maxY));
  return (unit == Unit::Radian ? planar * kRadian : planar) * kMargin;
}

std::optional<NearestBounds> NearestBounds::of(std::shared_ptr<const SpatialIndex> index, std::string_view geometry,
                                               std::string_view unit) {
  const std::optional<Box> query = boxOfTerm(geometry);
  const std::optional<Unit> u = unitOfTerm(unit);
  if (!query || !u) return std::nullopt;
  return NearestBounds(std::move(index), *query, *u);
}

std::pair<std::vector<uint32_t>, double> NearestBounds::nearest(size_t count) const {
  return index_->leastBounded(count, [this](const Box& b) { return distanceLowerBound(b, query_, unit_); });
}

size_t NearestBounds::literalCount() const { return index_->size(); }

bool NearestBounds::holdsAll(std::span<const uint32_t> ids) const { return index_->holdsAll(ids); }

double NearestBounds::lowerBound(uint32_t id) const {
  const std::optional<Box> b = index_->box(id);
  return b ? distanceLowerBound(*b, query_, unit_) : -std::numeric_limits<double>::infinity();
}

}  // namespace gsparql::engine::geo
