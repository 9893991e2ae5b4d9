#pragma once
// Coordinate reference systems through PROJ (Debian's libproj-dev; proj.h
// stays behind this header): the EPSG CRSs other than 4326 transformed to
// and from CRS84, and geodesic distances on the WGS 84 ellipsoid. PROJ
// runs without network access, so only the transformations its database
// holds without downloaded grids are used (docs/geosparql.md#coordinate-reference-systems).
#include <span>
#include <string>

#include "engine/geo/geometry.h"

namespace gsparql::engine::geo {

// Throws GeoError unless PROJ's database knows EPSG:`code` as a CRS it can
// transform to CRS84.
void checkEpsg(int code);
// `g` with every coordinate transformed from EPSG:`code`, in that CRS's
// axis order, to CRS84 (longitude, latitude), or back. Throws GeoError for
// a coordinate PROJ cannot transform.
GeometryPtr epsgToCrs84(const GEOSGeometry* g, int code);
GeometryPtr crs84ToEpsg(const GEOSGeometry* g, int code);
// The geodesic distance in metres between two CRS84 points on the WGS 84
// ellipsoid (Karney's algorithm, PROJ's geod_inverse).
double geodesicMetres(double lon1, double lat1, double lon2, double lat2);

// `g` (CRS84) buffered by `metres` on WGS 84: buffered in the azimuthal
// equidistant projection centred at its envelope's centre (distances from
// the centre kept exactly, others within a fraction of a percent for
// geometries of some hundreds of kilometres) and transformed back, as
// PostGIS buffers its geography type in a projection around it. Throws
// GeoError where PROJ cannot.
GeometryPtr bufferMetres(const GEOSGeometry* g, double metres, int quadrantSegments);

struct LonLat {
  double lon = 0, lat = 0;
};
// The length in metres of the line through `points` (CRS84), each leg a
// geodesic of WGS 84.
double geodesicLengthMetres(std::span<const LonLat> points);
// The area in square metres that the ring through `points` (CRS84; closed
// whether or not it repeats its first point) encloses on WGS 84 with
// geodesic edges, as PROJ's geod_polygonarea (Karney) gives it, unsigned:
// the smaller side of the ring's two.
double geodesicAreaMetres(std::span<const LonLat> ring);

}  // namespace gsparql::engine::geo
