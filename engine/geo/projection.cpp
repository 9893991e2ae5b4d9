#include "engine/geo/projection.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdio>
#include <map>
#include <memory>
#include <vector>

#include "engine/geo/geos_library.h"
#include "engine/geo/proj_library.h"

namespace gsparql::engine::geo {
namespace {

// A geometry's x and y are a longitude and latitude or a projection's
// easting and northing: a geocentric CRS (X, Y, Z from the Earth's centre,
// EPSG:4978), a vertical or an engineering one has no such pair, and PROJ
// would map (1, 2) metres from the centre to some longitude and back to
// another point. What the CRS is where it has none; nullptr where it has.
const char* withoutHorizontalPair(PJ_TYPE type) {
  switch (type) {
    case PJ_TYPE_GEOGRAPHIC_CRS:
    case PJ_TYPE_GEOGRAPHIC_2D_CRS:
    case PJ_TYPE_GEOGRAPHIC_3D_CRS:
    case PJ_TYPE_PROJECTED_CRS:
    case PJ_TYPE_COMPOUND_CRS:
      return nullptr;
    case PJ_TYPE_GEOCENTRIC_CRS:
      return "a geocentric CRS";
    case PJ_TYPE_VERTICAL_CRS:
      return "a vertical CRS";
    case PJ_TYPE_ENGINEERING_CRS:
      return "an engineering CRS";
    case PJ_TYPE_TEMPORAL_CRS:
      return "a temporal CRS";
    default:
      return "not a geographic or projected CRS";
  }
}

// PROJ's objects are not shared between threads: a context and the
// transformations made so far, per thread, as GEOS's contexts are.
class Projections {
 public:
  Projections() : context_(proj.proj_context_create()) {  // proj: declared, and so set, first
    proj.proj_context_set_enable_network(context_, 0);  // never download grids
    proj.proj_log_level(context_, PJ_LOG_NONE);           // failures become GeoErrors, not stderr lines
  }
  ~Projections() {
    for (auto& [code, made] : made_) {
      if (made.operation) proj.proj_destroy(made.operation);
    }
    proj.proj_context_destroy(context_);
  }
  Projections(const Projections&) = delete;
  Projections& operator=(const Projections&) = delete;

  // EPSG:code to CRS84 (PJ_FWD) and back (PJ_INV), or why there is none.
  struct ToCrs84 {
    PJ* operation = nullptr;
    std::string why;
  };
  // The operation a PROJ string defines, or nullptr; the caller destroys it.
  PJ* create(const std::string& definition) { return proj.proj_create(context_, definition.c_str()); }

  const ToCrs84& toCrs84(int code) {
    auto [it, added] = made_.try_emplace(code);
    if (added) {
      const std::string from = "EPSG:" + std::to_string(code);
      PJ* crs = proj.proj_create(context_, from.c_str());
      const char* without = crs ? withoutHorizontalPair(proj.proj_get_type(crs)) : nullptr;
      if (crs) proj.proj_destroy(crs);
      if (!crs) {
        it->second.why = "unknown CRS " + from + ": not a geographic or projected CRS that PROJ can transform to CRS84";
      } else if (without) {
        it->second.why = from + " is " + without + ": a geometry needs a longitude and latitude or an easting and "
                         "northing";
      } else {
        it->second.operation = proj.proj_create_crs_to_crs(context_, from.c_str(), "OGC:CRS84", nullptr);
        if (!it->second.operation) it->second.why = "PROJ has no transformation from " + from + " to CRS84";
      }
    }
    return it->second;
  }

 private:
  const ProjLibrary& proj = projLibrary();
  PJ_CONTEXT* context_;
  std::map<int, ToCrs84> made_;
};

Projections& projections() {
  thread_local Projections p;
  return p;
}

PJ* operationFor(int code) {
  const auto& made = projections().toCrs84(code);
  if (!made.operation) throw GeoError(made.why);
  return made.operation;
}

struct Transform {
  const ProjLibrary& proj;
  PJ* operation;
  PJ_DIRECTION direction;
  double longitudesNear;  // where finite, longitudes come out within 180 degrees of it (no wrap at +-180)
  bool failed = false;
};

// `g` with every coordinate transformed by `operation` in `direction`;
// throws GeoError saying `what` where a coordinate does not transform.
GeometryPtr transformed(const GEOSGeometry* g, PJ* operation, PJ_DIRECTION direction, const std::string& what,
                        double longitudesNear = std::numeric_limits<double>::quiet_NaN()) {
  Transform t{projLibrary(), operation, direction, longitudesNear};
  auto each = [](double* x, double* y, void* data) {
    auto* t = static_cast<Transform*>(data);
    PJ_COORD c = t->proj.proj_trans(t->operation, t->direction, t->proj.proj_coord(*x, *y, 0, 0));
    if (!std::isfinite(c.xy.x) || !std::isfinite(c.xy.y) || c.xy.x == HUGE_VAL) {
      t->failed = true;
      return 0;
    }
    *x = std::isfinite(t->longitudesNear) ? t->longitudesNear + std::remainder(c.xy.x - t->longitudesNear, 360.0)
                                          : c.xy.x;
    *y = c.xy.y;
    return 1;
  };
  GEOSGeometry* out = geos().GEOSGeom_transformXY_r(context(), g, each, &t);
  if (t.failed) {
    if (out) geos().GEOSGeom_destroy_r(context(), out);
    throw GeoError("a coordinate PROJ cannot transform " + what);
  }
  return own(out);
}

GeometryPtr transformed(const GEOSGeometry* g, int code, PJ_DIRECTION direction) {
  return transformed(g, operationFor(code), direction, "between EPSG:" + std::to_string(code) + " and CRS84");
}

}  // namespace

void checkEpsg(int code) { operationFor(code); }

GeometryPtr epsgToCrs84(const GEOSGeometry* g, int code) { return transformed(g, code, PJ_FWD); }

GeometryPtr crs84ToEpsg(const GEOSGeometry* g, int code) { return transformed(g, code, PJ_INV); }

namespace {

const geod_geodesic& wgs84() {
  static const geod_geodesic ellipsoid = [] {
    geod_geodesic g{};
    projLibrary().geod_init(&g, 6'378'137.0, 1 / 298.257223563);
    return g;
  }();
  return ellipsoid;
}

// Geodesics are defined between latitudes of -90 to 90 degrees (PROJ
// answers NaN beyond): a measure in metres of a geometry beyond is an error.
void checkOnEllipsoid(double lon, double lat) {
  if (!(lat >= -90 && lat <= 90) || !std::isfinite(lon)) {
    throw GeoError("a measure in metres of a point beyond latitude -90 to 90 (" + std::to_string(lon) + " " +
                   std::to_string(lat) + ")");
  }
}

}  // namespace

double geodesicMetres(double lon1, double lat1, double lon2, double lat2) {
  checkOnEllipsoid(lon1, lat1);
  checkOnEllipsoid(lon2, lat2);
  const ProjLibrary& proj = projLibrary();
  double metres = 0;
  proj.geod_inverse(&wgs84(), lat1, lon1, lat2, lon2, &metres, nullptr, nullptr);
  return metres;
}

// How far from the projection's centre a buffer may reach: a quarter of the
// Earth's circumference, where the azimuthal equidistant projection still
// keeps shapes recognisable.
constexpr double kMostBufferReach = 10'000'000;

GeometryPtr bufferMetres(const GEOSGeometry* g, double metres, int quadrantSegments) {
  if (geos().GEOSisEmpty_r(context(), g) == 1) return own(geos().GEOSGeom_clone_r(context(), g));
  const Box box = boxOfGeometry(g);
  const double lon = (box.minX + box.maxX) / 2, lat = (box.minY + box.maxY) / 2;
  checkOnEllipsoid(lon, lat);
  char definition[256];
  std::snprintf(definition, sizeof definition,
                "+proj=pipeline +step +proj=unitconvert +xy_in=deg +xy_out=rad "
                "+step +proj=aeqd +lat_0=%.15g +lon_0=%.15g +ellps=WGS84",
                lat, lon);
  const ProjLibrary& proj = projLibrary();
  const std::unique_ptr<PJ, decltype(proj.proj_destroy)> aeqd(projections().create(definition), proj.proj_destroy);
  if (!aeqd) throw GeoError("PROJ cannot make an azimuthal equidistant projection at " + std::string(definition));
  const std::string what = "to metres around its centre for a buffer";
  GeometryPtr planar = transformed(g, aeqd.get(), PJ_FWD, what);
  // Farther, distances and shapes are too distorted to be the buffer asked for: an error, not a wrong shape.
  const Box reach = boxOfGeometry(planar.get());
  const double farthest = std::hypot(std::max(std::abs(reach.minX), std::abs(reach.maxX)),
                                     std::max(std::abs(reach.minY), std::abs(reach.maxY)));
  if (!(farthest + std::max(metres, 0.0) <= kMostBufferReach)) {
    throw GeoError("a buffer in metres that reaches beyond 10,000 km of the geometry's centre");
  }
  GeometryPtr buffered = own(geos().GEOSBuffer_r(context(), planar.get(), metres, quadrantSegments));
  if (!buffered) throw GeoError("GEOS failed to compute a buffer");
  // No polygon of longitudes and latitudes holds a pole inside.
  for (const double pole : {90.0, -90.0}) {
    const PJ_COORD at = proj.proj_trans(aeqd.get(), PJ_FWD, proj.proj_coord(lon, pole, 0, 0));
    if (!std::isfinite(at.xy.x) || !std::isfinite(at.xy.y)) continue;
    GeometryPtr point = own(geos().GEOSGeom_createRectangle_r(context(), at.xy.x, at.xy.y, at.xy.x, at.xy.y));
    if (point && geos().GEOSIntersects_r(context(), buffered.get(), point.get()) == 1) {
      throw GeoError("a buffer in metres around a pole, which no polygon of longitudes and latitudes holds");
    }
  }
  // Back around the same longitudes: a buffer across the antimeridian goes beyond 180 rather than wrap.
  return transformed(buffered.get(), aeqd.get(), PJ_INV, what, lon);
}

double geodesicLengthMetres(std::span<const LonLat> points) {
  double metres = 0;
  for (size_t i = 1; i < points.size(); ++i) {
    metres += geodesicMetres(points[i - 1].lon, points[i - 1].lat, points[i].lon, points[i].lat);
  }
  return metres;
}

double geodesicAreaMetres(std::span<const LonLat> ring) {
  size_t n = ring.size();
  if (n > 1 && ring[0].lon == ring[n - 1].lon && ring[0].lat == ring[n - 1].lat) --n;  // closed by PROJ
  if (n < 3 || n > static_cast<size_t>(std::numeric_limits<int>::max())) return 0;
  std::vector<double> lats(n), lons(n);
  for (size_t i = 0; i < n; ++i) {
    checkOnEllipsoid(ring[i].lon, ring[i].lat);
    lats[i] = ring[i].lat, lons[i] = ring[i].lon;
  }
  double area = 0, perimeter = 0;
  projLibrary().geod_polygonarea(&wgs84(), lats.data(), lons.data(), static_cast<int>(n), &area, &perimeter);
  return std::abs(area);
}

}  // namespace gsparql::engine::geo
