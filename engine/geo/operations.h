#pragma once
// The GeoSPARQL functions on geometries (docs/geosparql.md): the topological
// relations of the three families, measures with units, and the operations
// that make new geometries. Each throws GeoError where GEOS fails.
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "engine/geo/geometry.h"
#include "engine/geo/unit.h"

namespace gsparql::engine::geo {

struct GeosLibrary;  // geos_library.h: the functions of GEOS, opened on first use

// A topological relation: GEOS's own predicate where GeoSPARQL's definition
// is a disjunction of DE-9IM patterns or depends on the dimensions (the
// Simple Features ones), else the single DE-9IM pattern the GeoSPARQL 1.0
// standard gives (Egenhofer, RCC8; tables 2 to 4, section 7).
struct Relation {
  std::string_view name;  // local name, "sfWithin": geof: function and geo: property alike
  char (*GeosLibrary::*predicate)(GEOSContextHandle_t, const GEOSGeometry*, const GEOSGeometry*);
  std::string_view pattern;  // used when predicate is null
};

inline constexpr size_t kRelationCount = 24;
std::span<const Relation, kRelationCount> relations();
const Relation* findRelation(std::string_view name);
bool holds(const Relation& relation, const Geometry& a, const Geometry& b);
// geof:relate: the DE-9IM pattern holds between a and b.
bool relatePattern(const Geometry& a, const Geometry& b, std::string_view pattern);

// Shortest distance. Coordinates are degrees (CRS84): in degrees or radians
// it is the planar distance; in metres, the geodesic distance on the WGS 84
// ellipsoid (PROJ's geod_inverse) between the two nearest points of the
// planar computation.
double distance(const Geometry& a, const Geometry& b, Unit unit);
// A buffer of `radius` in `unit`: planar in degrees and radians; in metres
// on WGS 84, in a projection around the geometry (projection.h's bufferMetres).
GeometryPtr buffer(const Geometry& g, double radius, Unit unit);
// Area and length: planar in degrees (square degrees), or in metres (square
// metres) on the WGS 84 ellipsoid with geodesic edges, as PostGIS's
// geography type measures them (PROJ's geodesics): a polygon's area less
// its holes', a polygon's length its rings' (GEOS's planar length too).
double area(const Geometry& g, Unit unit);
double length(const Geometry& g, Unit unit);

// Unary and binary operations making geometries, by their geof: local name
// ("envelope", "convexHull", "boundary", "centroid"; "intersection",
// "union", "difference", "symDifference"). nullptr-free: throws instead.
GeometryPtr unary(std::string_view name, const Geometry& g);
GeometryPtr binary(std::string_view name, const Geometry& a, const Geometry& b);

// GeoSPARQL 1.1's aggregates of a group's geometries, by their geof: local
// name: "aggBoundingBox" (the envelope of them all), "aggBoundingCircle"
// (GEOS's minimum bounding circle, planar, as a polygon), "aggCentroid" (the
// centroid of their union: each point counted once), "aggConvexHull",
// "aggUnion". Throws for none.
GeometryPtr aggregate(std::string_view name, std::span<const GEOSGeometry* const> parts);

// Properties: topological dimension (GEOS: 0 for an empty one), coordinate dimension,
// bounds. Bounds of an empty geometry are an error.
int dimension(const Geometry& g);
int coordinateDimension(const Geometry& g);
enum class Bound { MinX, MaxX, MinY, MaxY };
// In the geometry's CRS axis order: minY of an EPSG:4326 geometry is its
// smallest longitude, the literal's second coordinate.
double bound(const Geometry& g, Bound b);

}  // namespace gsparql::engine::geo
