// libFuzzer target for the geometry literals (engine/geo/geometry.h): the
// GML reader of our own over libxml2, and the limits and CRS handling put in
// front of GEOS's WKT and GeoJSON readers. The first byte picks the datatype
// (WKT, GML, GeoJSON); the rest is the lexical form.
// Findings: a crash, a sanitizer report (in our code; GEOS and libxml2 are
// Debian's uninstrumented libraries), an exception other than GeoError, or a
// geometry that, written as WKT and as GML and read again, is not the same.
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
    same(g, readWkt(writeWkt(g.get(), g.crs)));
    // A LinearRing comes back from GML as a LineString.
    if (geos().GEOSGeomTypeId_r(context(), g.get()) != GEOS_LINEARRING) same(g, readGml(writeGml(g.get(), g.crs)));
  } catch (const GeoError&) {
    // A refused literal: the expected outcome of most inputs.
  }
  return 0;
}
