#pragma once
// GeoSPARQL geometry literals read into GEOS geometries (docs/geosparql.md).
//
// Every geometry is kept in CRS84 axis order (x = longitude, y = latitude),
// whatever CRS its literal names, so two geometries compare without asking
// which CRS each came from; a result is written back in the CRS of the
// function's first argument. EPSG:4326 differs from CRS84 in axis order
// alone; any other EPSG CRS is transformed through PROJ (projection.h).
//
// Every failure throws GeoError with the reason: the expressions turn it
// into a SPARQL error (a literal that does not read stays a literal).
#define GEOS_USE_ONLY_R_API
#include <geos_c.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "engine/geo/box.h"

namespace gsparql::engine::geo {

inline constexpr std::string_view kGeoNs = "http://www.opengis.net/ont/geosparql#";
inline constexpr std::string_view kWktLiteral = "http://www.opengis.net/ont/geosparql#wktLiteral";
inline constexpr std::string_view kGeoJsonLiteral = "http://www.opengis.net/ont/geosparql#geoJSONLiteral";
inline constexpr std::string_view kGmlLiteral = "http://www.opengis.net/ont/geosparql#gmlLiteral";
inline constexpr std::string_view kCrs84 = "http://www.opengis.net/def/crs/OGC/1.3/CRS84";
// An EPSG CRS: this, then its code.
inline constexpr std::string_view kEpsgIri = "http://www.opengis.net/def/crs/EPSG/0/";

// Literals longer than this, or with more coordinates, are refused before
// GEOS reads them: a bound on the memory and time one literal can take.
inline constexpr size_t kMaxLiteralBytes = size_t{64} << 20;
inline constexpr size_t kMaxCoordinates = 1'000'000;

struct GeoError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// This thread's GEOS context: the reentrant API needs one per thread, and
// its error handler keeps the last message for GeoError.
GEOSContextHandle_t context();

struct GeometryDeleter {
  void operator()(GEOSGeometry* g) const;
};
using GeometryPtr = std::unique_ptr<GEOSGeometry, GeometryDeleter>;

// Takes ownership of what a GEOS call returned; throws GeoError with GEOS's
// message when it returned nullptr.
GeometryPtr own(GEOSGeometry* g);

// The CRS a literal names: CRS84 (the default), or an EPSG code.
struct Crs {
  int epsg = 0;  // 0: CRS84
  static const Crs Crs84, Epsg4326;
  bool operator==(const Crs&) const = default;
};
inline const Crs Crs::Crs84{0};
inline const Crs Crs::Epsg4326{4326};
// The literal a geometry was read from: a function's result is written the same way.
enum class Serialization { Wkt, GeoJson, Gml };

struct Geometry {
  GeometryPtr geometry;  // in CRS84 axis order
  Crs crs = Crs::Crs84;
  Serialization serialization = Serialization::Wkt;
  const GEOSGeometry* get() const { return geometry.get(); }
};

bool isGeometryDatatype(std::string_view datatype);
// A wktLiteral, gmlLiteral or geoJSONLiteral's lexical form. An empty
// wktLiteral or gmlLiteral is the empty geometry (GeoSPARQL 1.0, Req 13 and
// 16). Throws GeoError.
Geometry readLiteral(std::string_view lexical, std::string_view datatype);
// The geometry of a term (rdf/term.h form) as the geof: functions read their
// arguments: a literal of a geometry datatype that reads; nullopt for any
// other term, where a function on it is an error.
std::optional<Geometry> readTerm(std::string_view term);
Geometry readWkt(std::string_view lexical);
Geometry readGeoJson(std::string_view lexical);
// GML's simple-features shapes (gml.cpp): Point, LineString, LinearRing,
// Polygon, the Multi* and MultiGeometry, coordinates in pos, posList or
// GML 2's coordinates; elements matched by local name, whatever their
// namespace (the benchmark's data has a namespace of its own).
Geometry readGml(std::string_view lexical);

// The envelope of a non-empty geometry, as plain numbers (box.h).
Box boxOfGeometry(const GEOSGeometry* g);

// The same geometry with x and y swapped: between CRS84 and EPSG:4326 order.
GeometryPtr swapAxes(const GEOSGeometry* g);
// `g` from `crs`'s coordinates and axis order to CRS84's, or back.
GeometryPtr toCrs84(const GEOSGeometry* g, Crs crs);
GeometryPtr fromCrs84(const GEOSGeometry* g, Crs crs);

// The CRS named by an IRI (or GML's EPSG:n and urn:ogc:def:crs:EPSG::n),
// throwing GeoError for one that is neither CRS84 nor an EPSG CRS PROJ knows.
Crs crsOf(std::string_view iri);
std::string crsIri(Crs crs);

// The wktLiteral lexical form of `g` (CRS84 axis order) in `crs`: its IRI
// first unless it is CRS84, the default, and coordinates in its axis order.
std::string writeWkt(const GEOSGeometry* g, Crs crs);
// GeoJSON is always CRS84 (RFC 7946).
std::string writeGeoJson(const GEOSGeometry* g);
// GML 3.2 with the CRS as srsName (gml.cpp).
std::string writeGml(const GEOSGeometry* g, Crs crs);
// The literal (rdf/term.h form) of `g` in `serialization` and `crs`.
std::string literalOf(const GEOSGeometry* g, Crs crs, Serialization serialization);

}  // namespace gsparql::engine::geo
