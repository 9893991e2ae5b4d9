#include "engine/geo/geometry.h"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

#include "rdf/term.h"

namespace gsparql::engine::geo {
namespace {

struct ThreadContext {
  GEOSContextHandle_t handle = GEOS_init_r();
  std::string lastError;
  ThreadContext() {
    GEOSContext_setErrorMessageHandler_r(
        handle, [](const char* message, void* self) { static_cast<ThreadContext*>(self)->lastError = message; },
        this);
  }
  ~ThreadContext() { GEOS_finish_r(handle); }
  ThreadContext(const ThreadContext&) = delete;
  ThreadContext& operator=(const ThreadContext&) = delete;
};

ThreadContext& threadContext() {
  thread_local ThreadContext c;
  return c;
}

[[noreturn]] void fail(std::string_view what) {
  std::string message(what);
  std::string& geos = threadContext().lastError;
  if (!geos.empty()) message += ": " + geos;
  geos.clear();
  throw GeoError(message);
}

std::string_view trim(std::string_view s) {
  auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Refuses what would cost too much before GEOS builds it. `separator`
// occurs at least once a coordinate (',' in WKT, '[' in GeoJSON), so its
// count bounds the coordinates from above within a ring or two.
void checkSize(std::string_view text, char separator) {
  if (text.size() > kMaxLiteralBytes) {
    throw GeoError("geometry literal of " + std::to_string(text.size()) + " bytes: the limit is " +
                   std::to_string(kMaxLiteralBytes));
  }
  if (static_cast<size_t>(std::count(text.begin(), text.end(), separator)) > kMaxCoordinates) {
    throw GeoError("geometry literal with more than " + std::to_string(kMaxCoordinates) + " coordinates");
  }
}

// WKT has no keyword holding "nan" or "inf", so either one in the text is a
// coordinate GEOS would read as a non-finite number.
void checkFinite(std::string_view wkt) {
  std::string text = lower(wkt);
  if (text.find("nan") != std::string::npos || text.find("inf") != std::string::npos) {
    throw GeoError("geometry literal with a NaN or infinite coordinate");
  }
}

// A geometry in `crs` axis order, as read or to be written.
Geometry inCrs84(GeometryPtr g, Crs crs) {
  if (crs == Crs::Epsg4326) g = swapAxes(g.get());
  return {std::move(g), crs};
}

// A position is an array of 2 or 3 numbers; "coordinates" nests arrays of
// them, none empty. GEOS 3.11's GeoJSON reader reads a shorter position past
// its end (a crash the geometry fuzzer found), so nothing else reaches it.
void checkPositions(const nlohmann::json& j) {
  if (!j.is_array() || j.empty()) throw GeoError("GeoJSON coordinates: an empty or non-array member");
  if (j.front().is_number()) {
    if (j.size() < 2 || j.size() > 3) throw GeoError("GeoJSON position without 2 or 3 numbers");
    for (const auto& n : j) {
      if (!n.is_number()) throw GeoError("GeoJSON position with a non-number");
    }
    return;
  }
  for (const auto& child : j) checkPositions(child);
}

void checkCoordinatesIn(const nlohmann::json& j) {
  if (j.is_object()) {
    for (const auto& [key, value] : j.items()) {
      // An empty top-level array is an empty geometry, which GEOS reads.
      if (key == "coordinates" && !(value.is_array() && value.empty())) {
        checkPositions(value);
      } else {
        checkCoordinatesIn(value);
      }
    }
  } else if (j.is_array()) {
    for (const auto& child : j) checkCoordinatesIn(child);
  }
}

void checkGeoJsonCoordinates(std::string_view lexical) {
  nlohmann::json j = nlohmann::json::parse(lexical, nullptr, false);
  if (j.is_discarded()) throw GeoError("malformed GeoJSON: not JSON");
  checkCoordinatesIn(j);
}

}  // namespace

GeometryPtr swapAxes(const GEOSGeometry* g) {
  auto swap = [](double* x, double* y, void*) {
    std::swap(*x, *y);
    return 1;
  };
  return own(GEOSGeom_transformXY_r(context(), g, swap, nullptr));
}

GEOSContextHandle_t context() { return threadContext().handle; }

void GeometryDeleter::operator()(GEOSGeometry* g) const { GEOSGeom_destroy_r(context(), g); }

GeometryPtr own(GEOSGeometry* g) {
  if (!g) fail("GEOS failed");
  return GeometryPtr(g);
}

bool isGeometryDatatype(std::string_view datatype) {
  return datatype == kWktLiteral || datatype == kGeoJsonLiteral || datatype == kGmlLiteral;
}

Crs crsOf(std::string_view iri) {
  if (iri == kCrs84 || iri == "http://www.opengis.net/def/crs/OGC/0/CRS84") return Crs::Crs84;
  if (iri == kEpsg4326 || iri == "EPSG:4326" || iri == "urn:ogc:def:crs:EPSG::4326") return Crs::Epsg4326;
  throw GeoError("unsupported CRS <" + std::string(iri) + ">: only CRS84 and EPSG:4326 are read (no PROJ)");
}

std::string_view crsIri(Crs crs) { return crs == Crs::Crs84 ? kCrs84 : kEpsg4326; }

Geometry readLiteral(std::string_view lexical, std::string_view datatype) {
  if (datatype == kWktLiteral) return readWkt(lexical);
  if (datatype == kGeoJsonLiteral) return readGeoJson(lexical);
  if (datatype == kGmlLiteral) return readGml(lexical);
  throw GeoError("not a geometry literal: datatype <" + std::string(datatype) + ">");
}

Geometry readWkt(std::string_view lexical) {
  checkSize(lexical, ',');
  std::string_view text = trim(lexical);
  Crs crs = Crs::Crs84;
  if (text.starts_with('<')) {
    size_t end = text.find('>');
    if (end == std::string_view::npos) throw GeoError("wktLiteral with an unterminated CRS IRI");
    crs = crsOf(text.substr(1, end - 1));
    text = trim(text.substr(end + 1));
  }
  if (text.empty()) text = "GEOMETRYCOLLECTION EMPTY";
  checkFinite(text);
  GEOSWKTReader* reader = GEOSWKTReader_create_r(context());
  GEOSGeometry* g = GEOSWKTReader_read_r(context(), reader, std::string(text).c_str());
  GEOSWKTReader_destroy_r(context(), reader);
  if (!g) fail("malformed WKT");
  return inCrs84(GeometryPtr(g), crs);
}

Geometry readGeoJson(std::string_view lexical) {
  checkSize(lexical, '[');
  checkGeoJsonCoordinates(lexical);
  GEOSGeoJSONReader* reader = GEOSGeoJSONReader_create_r(context());
  GEOSGeometry* g = GEOSGeoJSONReader_readGeometry_r(context(), reader, std::string(lexical).c_str());
  GEOSGeoJSONReader_destroy_r(context(), reader);
  if (!g) fail("malformed GeoJSON");
  return {GeometryPtr(g), Crs::Crs84, Serialization::GeoJson};
}

std::string writeWkt(const GEOSGeometry* g, Crs crs) {
  GeometryPtr swapped;
  if (crs == Crs::Epsg4326) g = (swapped = swapAxes(g)).get();
  GEOSWKTWriter* writer = GEOSWKTWriter_create_r(context());
  GEOSWKTWriter_setTrim_r(context(), writer, 1);
  GEOSWKTWriter_setOutputDimension_r(context(), writer, 3);
  char* text = GEOSWKTWriter_write_r(context(), writer, g);
  GEOSWKTWriter_destroy_r(context(), writer);
  if (!text) fail("cannot write WKT");
  std::string out = crs == Crs::Crs84 ? "" : "<" + std::string(crsIri(crs)) + "> ";
  out += text;
  GEOSFree_r(context(), text);
  return out;
}

std::string writeGeoJson(const GEOSGeometry* g) {
  GEOSGeoJSONWriter* writer = GEOSGeoJSONWriter_create_r(context());
  char* text = GEOSGeoJSONWriter_writeGeometry_r(context(), writer, g, -1);
  GEOSGeoJSONWriter_destroy_r(context(), writer);
  if (!text) fail("cannot write GeoJSON");
  std::string out(text);
  GEOSFree_r(context(), text);
  return out;
}

}  // namespace gsparql::engine::geo

namespace gsparql::engine::geo {

std::string literalOf(const GEOSGeometry* g, Crs crs, Serialization serialization) {
  switch (serialization) {
    case Serialization::GeoJson: return rdf::literalTerm(writeGeoJson(g), {}, kGeoJsonLiteral);
    case Serialization::Gml: return rdf::literalTerm(writeGml(g, crs), {}, kGmlLiteral);
    case Serialization::Wkt: break;
  }
  return rdf::literalTerm(writeWkt(g, crs), {}, kWktLiteral);
}

}  // namespace gsparql::engine::geo
