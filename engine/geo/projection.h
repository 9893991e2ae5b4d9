#pragma once
// Coordinate reference systems through PROJ (Debian's libproj-dev; proj.h
// stays behind this header): the EPSG CRSs other than 4326 transformed to
// and from CRS84, and geodesic distances on the WGS 84 ellipsoid. PROJ
// runs without network access, so only the transformations its database
// holds without downloaded grids are used (docs/geosparql.md#coordinate-reference-systems).
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

}  // namespace gsparql::engine::geo
