#include "engine/geo/operations.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <vector>

#include "engine/geo/geos_library.h"
#include "engine/geo/projection.h"

namespace gsparql::engine::geo {
namespace {

constexpr std::array kRelations = {
    Relation{"sfEquals", &GeosLibrary::GEOSEquals_r, {}},
    Relation{"sfDisjoint", &GeosLibrary::GEOSDisjoint_r, {}},
    Relation{"sfIntersects", &GeosLibrary::GEOSIntersects_r, {}},
    Relation{"sfTouches", &GeosLibrary::GEOSTouches_r, {}},
    Relation{"sfCrosses", &GeosLibrary::GEOSCrosses_r, {}},
    Relation{"sfWithin", &GeosLibrary::GEOSWithin_r, {}},
    Relation{"sfContains", &GeosLibrary::GEOSContains_r, {}},
    Relation{"sfOverlaps", &GeosLibrary::GEOSOverlaps_r, {}},
    Relation{"ehEquals", nullptr, "TFFFTFFFT"},
    Relation{"ehDisjoint", nullptr, "FF*FF****"},
    Relation{"ehMeet", &GeosLibrary::GEOSTouches_r, {}},  // FT******* | F**T***** | F***T****
    Relation{"ehOverlap", nullptr, "T*T***T**"},
    Relation{"ehCovers", nullptr, "T*TFT*FF*"},
    Relation{"ehCoveredBy", nullptr, "TFF*TFT**"},
    Relation{"ehInside", nullptr, "TFF*FFT**"},
    Relation{"ehContains", nullptr, "T*TFF*FF*"},
    Relation{"rcc8eq", nullptr, "TFFFTFFFT"},
    Relation{"rcc8dc", nullptr, "FFTFFTTTT"},
    Relation{"rcc8ec", nullptr, "FFTFTTTTT"},
    Relation{"rcc8po", nullptr, "TTTTTTTTT"},
    Relation{"rcc8tppi", nullptr, "TTTFTTFFT"},
    Relation{"rcc8tpp", nullptr, "TFFTTFTTT"},
    Relation{"rcc8ntpp", nullptr, "TFFTFFTTT"},
    Relation{"rcc8ntppi", nullptr, "TTTFFTFFT"},
};

// GEOS predicates answer 0, 1, or 2 for an exception.
bool answer(char result, std::string_view what) {
  if (result == 2) throw GeoError("GEOS failed to compute " + std::string(what));
  return result == 1;
}

double checked(int ok, double value, std::string_view what) {
  if (!ok) throw GeoError("GEOS failed to compute " + std::string(what));
  return value;
}

// The vertices of a line or ring (CRS84).
std::vector<LonLat> verticesOf(const GEOSGeometry* line) {
  const GEOSCoordSequence* coordinates = geos().GEOSGeom_getCoordSeq_r(context(), line);
  unsigned int size = 0;
  if (!coordinates || !geos().GEOSCoordSeq_getSize_r(context(), coordinates, &size)) {
    throw GeoError("GEOS failed to read a line's coordinates");
  }
  std::vector<LonLat> vertices(size);
  for (unsigned int i = 0; i < size; ++i) {
    checked(geos().GEOSCoordSeq_getXY_r(context(), coordinates, i, &vertices[i].lon, &vertices[i].lat), 0,
            "a coordinate");
  }
  return vertices;
}

// In metres on WGS 84 with geodesic edges: the area of `g`'s polygons
// (holes taken out), or the length of its lines and rings.
double geodesicMeasure(const GEOSGeometry* g, bool area) {
  switch (geos().GEOSGeomTypeId_r(context(), g)) {
    case GEOS_POINT:
    case GEOS_MULTIPOINT:
      return 0;
    case GEOS_LINESTRING:
    case GEOS_LINEARRING:
      return area ? 0 : geodesicLengthMetres(verticesOf(g));
    case GEOS_POLYGON: {
      if (geos().GEOSisEmpty_r(context(), g) == 1) return 0;
      const auto ring = [&](const GEOSGeometry* r) {
        const std::vector<LonLat> vertices = verticesOf(r);
        return area ? geodesicAreaMetres(vertices) : geodesicLengthMetres(vertices);
      };
      double measure = ring(geos().GEOSGetExteriorRing_r(context(), g));
      const int holes = geos().GEOSGetNumInteriorRings_r(context(), g);
      for (int h = 0; h < holes; ++h) measure += (area ? -1 : 1) * ring(geos().GEOSGetInteriorRingN_r(context(), g, h));
      return std::max(measure, 0.0);
    }
    default: {  // collections: the sum of their members'
      double measure = 0;
      for (int i = 0; i < geos().GEOSGetNumGeometries_r(context(), g); ++i) {
        measure += geodesicMeasure(geos().GEOSGetGeometryN_r(context(), g, i), area);
      }
      return measure;
    }
  }
}

void checkNotEmpty(const Geometry& g, std::string_view what) {
  if (geos().GEOSisEmpty_r(context(), g.get()) == 1) throw GeoError(std::string(what) + " of an empty geometry");
}

}  // namespace

std::span<const Relation, kRelationCount> relations() { return kRelations; }

const Relation* findRelation(std::string_view name) {
  for (const Relation& r : kRelations) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

bool holds(const Relation& relation, const Geometry& a, const Geometry& b) {
  if (relation.predicate) return answer((geos().*relation.predicate)(context(), a.get(), b.get()), relation.name);
  return relatePattern(a, b, relation.pattern);
}

bool relatePattern(const Geometry& a, const Geometry& b, std::string_view pattern) {
  if (pattern.size() != 9 || pattern.find_first_not_of("TF*012") != std::string_view::npos) {
    throw GeoError("not a DE-9IM pattern: \"" + std::string(pattern) + "\"");
  }
  return answer(geos().GEOSRelatePattern_r(context(), a.get(), b.get(), std::string(pattern).c_str()), "relate");
}

Unit unitOf(std::string_view iri) {
  std::string_view local = iri.starts_with(kUomNs) ? iri.substr(kUomNs.size()) : std::string_view{};
  if (local == "metre" || local == "meter") return Unit::Metre;
  if (local == "degree") return Unit::Degree;
  if (local == "radian") return Unit::Radian;
  throw GeoError("unsupported unit of measure <" + std::string(iri) + ">");
}

double distance(const Geometry& a, const Geometry& b, Unit unit) {
  checkNotEmpty(a, "distance");
  checkNotEmpty(b, "distance");
  if (unit != Unit::Metre) {
    double d = 0;
    checked(geos().GEOSDistance_r(context(), a.get(), b.get(), &d), d, "a distance");
    return unit == Unit::Radian ? d * kRadian : d;
  }
  GEOSCoordSequence* nearest = geos().GEOSNearestPoints_r(context(), a.get(), b.get());
  if (!nearest) throw GeoError("GEOS failed to compute the nearest points");
  std::array<double, 4> xy{};
  int ok = geos().GEOSCoordSeq_getXY_r(context(), nearest, 0, &xy[0], &xy[1]) &&
           geos().GEOSCoordSeq_getXY_r(context(), nearest, 1, &xy[2], &xy[3]);
  geos().GEOSCoordSeq_destroy_r(context(), nearest);
  checked(ok, 0, "the nearest points");
  return geodesicMetres(xy[0], xy[1], xy[2], xy[3]);
}

GeometryPtr buffer(const Geometry& g, double radius, Unit unit) {
  constexpr int kQuadrantSegments = 8;
  if (unit == Unit::Metre) return bufferMetres(g.get(), radius, kQuadrantSegments);
  const double degrees = unit == Unit::Radian ? radius / kRadian : radius;
  return own(geos().GEOSBuffer_r(context(), g.get(), degrees, kQuadrantSegments));
}

double area(const Geometry& g, Unit unit) {
  double a = 0;
  checked(geos().GEOSArea_r(context(), g.get(), &a), a, "an area");
  if (unit == Unit::Degree || a == 0) return a;
  if (unit == Unit::Radian) return a * kRadian * kRadian;
  return geodesicMeasure(g.get(), true);
}

double length(const Geometry& g, Unit unit) {
  double l = 0;
  checked(geos().GEOSLength_r(context(), g.get(), &l), l, "a length");
  if (unit == Unit::Degree || l == 0) return l;
  if (unit == Unit::Radian) return l * kRadian;
  return geodesicMeasure(g.get(), false);
}

GeometryPtr unary(std::string_view name, const Geometry& g) {
  GEOSContextHandle_t c = context();
  if (name == "envelope") return own(geos().GEOSEnvelope_r(c, g.get()));
  if (name == "convexHull") return own(geos().GEOSConvexHull_r(c, g.get()));
  if (name == "boundary") return own(geos().GEOSBoundary_r(c, g.get()));
  if (name == "centroid") return own(geos().GEOSGetCentroid_r(c, g.get()));
  throw GeoError("unknown geometry operation " + std::string(name));
}

GeometryPtr binary(std::string_view name, const Geometry& a, const Geometry& b) {
  GEOSContextHandle_t c = context();
  if (name == "intersection") return own(geos().GEOSIntersection_r(c, a.get(), b.get()));
  if (name == "union") return own(geos().GEOSUnion_r(c, a.get(), b.get()));
  if (name == "difference") return own(geos().GEOSDifference_r(c, a.get(), b.get()));
  if (name == "symDifference") return own(geos().GEOSSymDifference_r(c, a.get(), b.get()));
  throw GeoError("unknown geometry operation " + std::string(name));
}

GeometryPtr aggregate(std::string_view name, std::span<const GEOSGeometry* const> parts) {
  if (parts.empty()) throw GeoError("no geometry to aggregate");
  GEOSContextHandle_t c = context();
  std::vector<GeometryPtr> copies;
  std::vector<GEOSGeometry*> members;
  for (const GEOSGeometry* part : parts) members.push_back(copies.emplace_back(own(geos().GEOSGeom_clone_r(c, part))).get());
  GeometryPtr all = own(geos().GEOSGeom_createCollection_r(c, GEOS_GEOMETRYCOLLECTION, members.data(),
                                                           static_cast<unsigned>(members.size())));
  for (GeometryPtr& copy : copies) static_cast<void>(copy.release());  // the collection owns them now
  if (name == "aggBoundingBox") return own(geos().GEOSEnvelope_r(c, all.get()));
  if (name == "aggConvexHull") return own(geos().GEOSConvexHull_r(c, all.get()));
  if (name == "aggUnion") return own(geos().GEOSUnaryUnion_r(c, all.get()));
  if (name == "aggCentroid") return own(geos().GEOSGetCentroid_r(c, own(geos().GEOSUnaryUnion_r(c, all.get())).get()));
  if (name == "aggBoundingCircle") {
    double radius = 0;
    GEOSGeometry* center = nullptr;
    GeometryPtr circle = own(geos().GEOSMinimumBoundingCircle_r(c, all.get(), &radius, &center));
    const GeometryPtr centre(center);  // only the circle is wanted: freed with this scope
    return circle;
  }
  throw GeoError("unknown geometry aggregate " + std::string(name));
}

int dimension(const Geometry& g) { return geos().GEOSGeom_getDimensions_r(context(), g.get()); }

int coordinateDimension(const Geometry& g) {
  int d = geos().GEOSGeom_getCoordinateDimension_r(context(), g.get());
  if (d == 0) throw GeoError("GEOS failed to compute a coordinate dimension");
  return d;
}

double bound(const Geometry& g, Bound b) {
  checkNotEmpty(g, "bounds");
  // In the literal's own coordinates: EPSG:4326's x is the latitude.
  GeometryPtr literal = fromCrs84(g.get(), g.crs);
  const GEOSGeometry* o = literal.get();
  bool x = b == Bound::MinX || b == Bound::MaxX;
  bool min = b == Bound::MinX || b == Bound::MinY;
  double v = 0;
  int ok = x ? (min ? geos().GEOSGeom_getXMin_r(context(), o, &v) : geos().GEOSGeom_getXMax_r(context(), o, &v))
             : (min ? geos().GEOSGeom_getYMin_r(context(), o, &v) : geos().GEOSGeom_getYMax_r(context(), o, &v));
  return checked(ok, v, "a bound");
}

}  // namespace gsparql::engine::geo
