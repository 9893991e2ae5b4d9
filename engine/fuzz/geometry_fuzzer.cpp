// libFuzzer target for the geometry literals (engine/geo/geometry.h): the
// GML reader of our own over libxml2, and the limits and CRS handling put in
// front of GEOS's WKT and GeoJSON readers. The first byte picks the datatype
// (WKT, GML, GeoJSON); the rest is the lexical form.
// Findings: a crash, a sanitizer report (in our code; GEOS and libxml2 are
// Debian's uninstrumented libraries), an exception other than GeoError, or a
// geometry that, written as WKT and as GML and read again, is not the same
// (where no PROJ transformation is involved: roundTrips).
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "engine/geo/geometry.h"
#include "engine/geo/geos_library.h"

using namespace gsparql::engine::geo;

namespace {

// The same shape and coordinates, to the writers' digits (GML's %.15g).
void same(const Geometry& g, const Geometry& again) {
  bool empty = geos().GEOSisEmpty_r(context(), g.get()) == 1;
  if (empty != (geos().GEOSisEmpty_r(context(), again.get()) == 1)) std::abort();
  if (!empty && geos().GEOSEqualsExact_r(context(), g.get(), again.get(), 1e-6) != 1) std::abort();
}

// Whether a literal in `crs` comes back to the same coordinates: not where
// PROJ transforms them, whose transformations are not exact inverses away
// from a CRS's area of use (cs2cs takes (2 2) of EPSG:2821 to (3.7 2.5) and
// back, and a datum shift there and back moves (1 2) of EPSG:4244 by 1e-6
// degrees); those are still written and read again, for crashes.
bool roundTrips(Crs crs) { return crs == Crs::Crs84 || crs == Crs::Epsg4326; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  constexpr std::string_view kTypes[] = {kWktLiteral, kGmlLiteral, kGeoJsonLiteral};
  std::string_view datatype = kTypes[data[0] % 3];
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    Geometry g = readLiteral(text, datatype);
    // Coordinates too large for the writers' digits to round-trip are not findings.
    double extent[4];
    if (geos().GEOSisEmpty_r(context(), g.get()) != 1 &&
        geos().GEOSGeom_getExtent_r(context(), g.get(), &extent[0], &extent[1], &extent[2], &extent[3]) == 1) {
      for (double v : extent) {
        if (v > 1e9 || v < -1e9) return 0;
      }
    }
    const Geometry fromWkt = readWkt(writeWkt(g.get(), g.crs));
    if (roundTrips(g.crs)) same(g, fromWkt);
    // A LinearRing comes back from GML as a LineString.
    if (geos().GEOSGeomTypeId_r(context(), g.get()) != GEOS_LINEARRING) {
      const Geometry fromGml = readGml(writeGml(g.get(), g.crs));
      if (roundTrips(g.crs)) same(g, fromGml);
    }
  } catch (const GeoError&) {
    // A refused literal: the expected outcome of most inputs.
  }
  return 0;
}
