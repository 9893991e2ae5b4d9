#include "engine/geo/projection.h"

#include <cmath>
#include <map>

#include "engine/geo/geos_library.h"
#include "engine/geo/proj_library.h"

namespace gsparql::engine::geo {
namespace {

// A geometry's x and y are a longitude and latitude or a projection's
// easting and northing: a geocentric CRS (X, Y, Z from the Earth's centre,
// EPSG:4978), a vertical or an engineering one has no such pair, and PROJ
// would map (1, 2) metres from the centre to some longitude and back to
// another point.
bool isHorizontal(PJ_TYPE type) {
  switch (type) {
    case PJ_TYPE_GEOGRAPHIC_CRS:
    case PJ_TYPE_GEOGRAPHIC_2D_CRS:
    case PJ_TYPE_GEOGRAPHIC_3D_CRS:
    case PJ_TYPE_PROJECTED_CRS:
    case PJ_TYPE_COMPOUND_CRS:
      return true;
    default:
      return false;
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
    for (auto& [code, p] : made_) {
      if (p) proj.proj_destroy(p);
    }
    proj.proj_context_destroy(context_);
  }
  Projections(const Projections&) = delete;
  Projections& operator=(const Projections&) = delete;

  // EPSG:code to CRS84 (PJ_FWD) and back (PJ_INV); nullptr where PROJ has
  // none or the code names no CRS of two horizontal coordinates.
  PJ* toCrs84(int code) {
    auto [it, added] = made_.try_emplace(code, nullptr);
    if (added) {
      const std::string from = "EPSG:" + std::to_string(code);
      PJ* crs = proj.proj_create(context_, from.c_str());
      const bool horizontal = crs && isHorizontal(proj.proj_get_type(crs));
      if (crs) proj.proj_destroy(crs);
      if (horizontal) it->second = proj.proj_create_crs_to_crs(context_, from.c_str(), "OGC:CRS84", nullptr);
    }
    return it->second;
  }

 private:
  const ProjLibrary& proj = projLibrary();
  PJ_CONTEXT* context_;
  std::map<int, PJ*> made_;
};

Projections& projections() {
  thread_local Projections p;
  return p;
}

PJ* operationFor(int code) {
  PJ* p = projections().toCrs84(code);
  if (!p) {
    throw GeoError("unknown CRS EPSG:" + std::to_string(code) +
                   ": not a geographic or projected CRS that PROJ can transform to CRS84");
  }
  return p;
}

struct Transform {
  const ProjLibrary& proj;
  PJ* operation;
  PJ_DIRECTION direction;
  bool failed = false;
};

GeometryPtr transformed(const GEOSGeometry* g, int code, PJ_DIRECTION direction) {
  Transform t{projLibrary(), operationFor(code), direction};
  auto each = [](double* x, double* y, void* data) {
    auto* t = static_cast<Transform*>(data);
    PJ_COORD c = t->proj.proj_trans(t->operation, t->direction, t->proj.proj_coord(*x, *y, 0, 0));
    if (!std::isfinite(c.xy.x) || !std::isfinite(c.xy.y) || c.xy.x == HUGE_VAL) {
      t->failed = true;
      return 0;
    }
    *x = c.xy.x;
    *y = c.xy.y;
    return 1;
  };
  GEOSGeometry* out = geos().GEOSGeom_transformXY_r(context(), g, each, &t);
  if (t.failed) {
    if (out) geos().GEOSGeom_destroy_r(context(), out);
    throw GeoError("a coordinate PROJ cannot transform between EPSG:" + std::to_string(code) + " and CRS84");
  }
  return own(out);
}

}  // namespace

void checkEpsg(int code) { operationFor(code); }

GeometryPtr epsgToCrs84(const GEOSGeometry* g, int code) { return transformed(g, code, PJ_FWD); }

GeometryPtr crs84ToEpsg(const GEOSGeometry* g, int code) { return transformed(g, code, PJ_INV); }

double geodesicMetres(double lon1, double lat1, double lon2, double lat2) {
  const ProjLibrary& proj = projLibrary();
  static const geod_geodesic wgs84 = [&] {
    geod_geodesic g{};
    proj.geod_init(&g, 6'378'137.0, 1 / 298.257223563);
    return g;
  }();
  double metres = 0;
  proj.geod_inverse(&wgs84, lat1, lon1, lat2, lon2, &metres, nullptr, nullptr);
  return metres;
}

}  // namespace gsparql::engine::geo
