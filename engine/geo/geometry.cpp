#include "engine/geo/geometry.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include <nlohmann/json.hpp>

#include "engine/geo/geos_library.h"
#include "engine/geo/projection.h"
#include "rdf/term.h"
#include "rdf/term_parts.h"

namespace gsparql::engine::geo {
namespace {

struct ThreadContext {
  GEOSContextHandle_t handle = geos().GEOS_init_r();
  std::string lastError;
  ThreadContext() {
    geos().GEOSContext_setErrorMessageHandler_r(
        handle, [](const char* message, void* self) { static_cast<ThreadContext*>(self)->lastError = message; },
        this);
  }
  ~ThreadContext() { geos().GEOS_finish_r(handle); }
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

// GEOS 3.11 reads no measure: it reads WKT's M coordinate as a Z ("POINT M
// (1 2 3)" as POINT Z (1 2 3)) and drops a fourth number of a position, so
// a literal with one (a keyword ending in M: M, ZM, POINTM; or a position of
// 4 numbers) is refused rather than read as another geometry. No geometry
// type's name ends in M.
void checkNoMeasures(std::string_view wkt) {
  auto separator = [](char c) { return c == '(' || c == ')' || c == ',' || std::isspace(static_cast<unsigned char>(c)); };
  size_t numbers = 0;  // of the current position
  for (size_t i = 0; i < wkt.size();) {
    if (separator(wkt[i])) {
      if (!std::isspace(static_cast<unsigned char>(wkt[i]))) numbers = 0;  // a position ends
      ++i;
      continue;
    }
    size_t end = i;
    while (end < wkt.size() && !separator(wkt[end])) ++end;
    if (std::isalpha(static_cast<unsigned char>(wkt[i]))) {
      if (std::toupper(static_cast<unsigned char>(wkt[end - 1])) == 'M') {
        throw GeoError("geometry literal with measures (M), which GEOS 3.11 does not read");
      }
    } else if (++numbers > 3) {
      throw GeoError("geometry literal with a position of more than 3 coordinates (a measure, which GEOS 3.11 does not read)");
    }
    i = end;
  }
}

// GEOS 3.11's WKT writer overflows a fixed buffer (a crash) writing a
// coordinate of about 1e200 in full: no coordinate that large is read, and
// none computed (a buffer of 1e150 degrees) is written.
constexpr double kMaxMagnitude = 1e100;

void checkMagnitude(double v) {
  if (std::abs(v) >= kMaxMagnitude) throw GeoError("geometry literal with a coordinate of magnitude 1e100 or more");
}

// Every number of a WKT text.
void checkMagnitudes(std::string_view wkt) {
  const char* end = wkt.data() + wkt.size();
  for (const char* p = wkt.data(); p < end;) {
    if (!std::isdigit(static_cast<unsigned char>(*p)) && *p != '.' && *p != '-') {
      ++p;
      continue;
    }
    double v = 0;
    const auto [next, error] = std::from_chars(p, end, v);
    if (error == std::errc::result_out_of_range) checkMagnitude(HUGE_VAL);
    if (error == std::errc{}) checkMagnitude(v);
    p = next > p ? next : p + 1;
  }
}

// The envelope of a geometry about to be written.
void checkWritable(const GEOSGeometry* g) {
  if (geos().GEOSisEmpty_r(context(), g) == 1) return;
  double v = 0;
  for (auto bound : {&GeosLibrary::GEOSGeom_getXMin_r, &GeosLibrary::GEOSGeom_getXMax_r,
                     &GeosLibrary::GEOSGeom_getYMin_r, &GeosLibrary::GEOSGeom_getYMax_r}) {
    if ((geos().*bound)(context(), g, &v)) checkMagnitude(v);
  }
}

// A geometry read in `crs`, held in CRS84.
Geometry inCrs84(GeometryPtr g, Crs crs) {
  if (crs != Crs::Crs84) g = toCrs84(g.get(), crs);
  return {std::move(g), crs};
}

// The EPSG code of an IRI, or 0 where it names none.
int epsgCode(std::string_view iri) {
  for (std::string_view prefix : {kEpsgIri, std::string_view("EPSG:"), std::string_view("urn:ogc:def:crs:EPSG::")}) {
    if (!iri.starts_with(prefix)) continue;
    std::string_view digits = iri.substr(prefix.size());
    if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string_view::npos) return 0;
    return std::stoi(std::string(digits));
  }
  return 0;
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
      checkMagnitude(n.get<double>());
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

Box boxOfGeometry(const GEOSGeometry* g) {
  Box b;
  geos().GEOSGeom_getXMin_r(context(), g, &b.minX);
  geos().GEOSGeom_getYMin_r(context(), g, &b.minY);
  geos().GEOSGeom_getXMax_r(context(), g, &b.maxX);
  geos().GEOSGeom_getYMax_r(context(), g, &b.maxY);
  return b;
}

GeometryPtr swapAxes(const GEOSGeometry* g) {
  auto swap = [](double* x, double* y, void*) {
    std::swap(*x, *y);
    return 1;
  };
  return own(geos().GEOSGeom_transformXY_r(context(), g, swap, nullptr));
}

GEOSContextHandle_t context() { return threadContext().handle; }

void GeometryDeleter::operator()(GEOSGeometry* g) const { geos().GEOSGeom_destroy_r(context(), g); }

GeometryPtr own(GEOSGeometry* g) {
  if (!g) fail("GEOS failed");
  return GeometryPtr(g);
}

bool isGeometryDatatype(std::string_view datatype) {
  return datatype == kWktLiteral || datatype == kGeoJsonLiteral || datatype == kGmlLiteral;
}

Crs crsOf(std::string_view iri) {
  if (iri == kCrs84 || iri == "http://www.opengis.net/def/crs/OGC/0/CRS84") return Crs::Crs84;
  const int code = epsgCode(iri);
  if (code == 0) throw GeoError("unsupported CRS <" + std::string(iri) + ">: neither CRS84 nor an EPSG CRS");
  if (code == Crs::Epsg4326.epsg) return Crs::Epsg4326;
  try {
    checkEpsg(code);
  } catch (const GeoError& e) {
    throw GeoError("unsupported CRS <" + std::string(iri) + ">: " + e.what());
  }
  return Crs{code};
}

std::string crsIri(Crs crs) {
  if (crs == Crs::Crs84) return std::string(kCrs84);
  return std::string(kEpsgIri) + std::to_string(crs.epsg);
}

GeometryPtr toCrs84(const GEOSGeometry* g, Crs crs) {
  if (crs == Crs::Crs84) return own(geos().GEOSGeom_clone_r(context(), g));
  return crs == Crs::Epsg4326 ? swapAxes(g) : epsgToCrs84(g, crs.epsg);
}

GeometryPtr fromCrs84(const GEOSGeometry* g, Crs crs) {
  if (crs == Crs::Crs84) return own(geos().GEOSGeom_clone_r(context(), g));
  return crs == Crs::Epsg4326 ? swapAxes(g) : crs84ToEpsg(g, crs.epsg);
}

Geometry readLiteral(std::string_view lexical, std::string_view datatype) {
  if (datatype == kWktLiteral) return readWkt(lexical);
  if (datatype == kGeoJsonLiteral) return readGeoJson(lexical);
  if (datatype == kGmlLiteral) return readGml(lexical);
  throw GeoError("not a geometry literal: datatype <" + std::string(datatype) + ">");
}

std::optional<Geometry> readTerm(std::string_view term) {
  if (!term.ends_with("Literal>")) return std::nullopt;  // the cheap test first: most terms are not geometries
  rdf::TermSplitter splitter;
  const rdf::TermParts& parts = splitter.split(term);
  if (parts.kind != rdf::TermKind::Literal || !isGeometryDatatype(parts.datatype)) return std::nullopt;
  try {
    return readLiteral(parts.value, parts.datatype);
  } catch (const GeoError&) {
    return std::nullopt;  // ill-typed: kept as a literal, an error for every function
  }
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
  checkMagnitudes(text);
  checkNoMeasures(text);
  GEOSWKTReader* reader = geos().GEOSWKTReader_create_r(context());
  GEOSGeometry* g = geos().GEOSWKTReader_read_r(context(), reader, std::string(text).c_str());
  geos().GEOSWKTReader_destroy_r(context(), reader);
  if (!g) fail("malformed WKT");
  return inCrs84(GeometryPtr(g), crs);
}

Geometry readGeoJson(std::string_view lexical) {
  checkSize(lexical, '[');
  checkGeoJsonCoordinates(lexical);
  GEOSGeoJSONReader* reader = geos().GEOSGeoJSONReader_create_r(context());
  GEOSGeometry* g = geos().GEOSGeoJSONReader_readGeometry_r(context(), reader, std::string(lexical).c_str());
  geos().GEOSGeoJSONReader_destroy_r(context(), reader);
  if (!g) fail("malformed GeoJSON");
  return {GeometryPtr(g), Crs::Crs84, Serialization::GeoJson};
}

std::string writeWkt(const GEOSGeometry* g, Crs crs) {
  GeometryPtr converted;
  if (crs != Crs::Crs84) g = (converted = fromCrs84(g, crs)).get();
  checkWritable(g);
  GEOSWKTWriter* writer = geos().GEOSWKTWriter_create_r(context());
  geos().GEOSWKTWriter_setTrim_r(context(), writer, 1);
  geos().GEOSWKTWriter_setOutputDimension_r(context(), writer, 3);
  char* text = geos().GEOSWKTWriter_write_r(context(), writer, g);
  geos().GEOSWKTWriter_destroy_r(context(), writer);
  if (!text) fail("cannot write WKT");
  std::string out = crs == Crs::Crs84 ? "" : "<" + crsIri(crs) + "> ";
  out += text;
  geos().GEOSFree_r(context(), text);
  return out;
}

std::string writeGeoJson(const GEOSGeometry* g) {
  GEOSGeoJSONWriter* writer = geos().GEOSGeoJSONWriter_create_r(context());
  char* text = geos().GEOSGeoJSONWriter_writeGeometry_r(context(), writer, g, -1);
  geos().GEOSGeoJSONWriter_destroy_r(context(), writer);
  if (!text) fail("cannot write GeoJSON");
  std::string out(text);
  geos().GEOSFree_r(context(), text);
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
