// GML geometries: read through libxml2 into WKT (so that WKT's limits and
// GEOS's checks apply to them too), written from GEOS's structure.
#include <libxml/parser.h>
#include <libxml/tree.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "engine/geo/geometry.h"
#include "engine/geo/geos_library.h"

namespace gsparql::engine::geo {
namespace {

using Doc = std::unique_ptr<xmlDoc, decltype(&xmlFreeDoc)>;

std::string_view nameOf(const xmlNode* n) { return reinterpret_cast<const char*>(n->name); }

std::string attribute(const xmlNode* n, const char* name) {
  xmlChar* v = xmlGetProp(n, reinterpret_cast<const xmlChar*>(name));
  std::string out = v ? reinterpret_cast<const char*>(v) : "";
  xmlFree(v);
  return out;
}

std::string textOf(const xmlNode* n) {
  xmlChar* v = xmlNodeGetContent(n);
  std::string out = v ? reinterpret_cast<const char*>(v) : "";
  xmlFree(v);
  return out;
}

std::vector<const xmlNode*> elements(const xmlNode* n) {
  std::vector<const xmlNode*> out;
  for (const xmlNode* c = n->children; c; c = c->next) {
    if (c->type == XML_ELEMENT_NODE) out.push_back(c);
  }
  return out;
}

const xmlNode* child(const xmlNode* n, std::string_view name) {
  for (const xmlNode* c : elements(n)) {
    if (nameOf(c) == name) return c;
  }
  return nullptr;
}

// "x y, x y" from pos/posList (dimension from srsDimension, default 2) or
// GML 2's coordinates ("x,y x,y"); empty when there are none.
std::string coordinates(const xmlNode* shape, std::string_view what) {
  std::vector<std::string> numbers;
  size_t dimension = 2;
  for (const xmlNode* c : elements(shape)) {
    std::string text = textOf(c);
    if (nameOf(c) == "coordinates") {
      for (char& ch : text) ch = ch == ',' ? ' ' : ch;
    } else if (nameOf(c) != "pos" && nameOf(c) != "posList") {
      continue;
    }
    if (std::string d = attribute(c, "srsDimension"); !d.empty()) dimension = d == "3" ? 3 : 2;
    std::istringstream in(text);
    for (std::string number; in >> number;) numbers.push_back(number);
  }
  if (numbers.size() % dimension != 0) throw GeoError("GML " + std::string(what) + " with a partial coordinate");
  std::string out;
  for (size_t i = 0; i < numbers.size(); ++i) {
    out += i == 0 ? "" : i % dimension == 0 ? ", " : " ";
    out += numbers[i];
  }
  return out;
}

std::string ring(const xmlNode* boundary) {
  const xmlNode* r = child(boundary, "LinearRing");
  if (!r) throw GeoError("GML polygon boundary without a LinearRing");
  std::string c = coordinates(r, "LinearRing");
  if (c.empty()) throw GeoError("GML LinearRing without coordinates");
  return "(" + c + ")";
}

// "TYPE(coordinates)", or "TYPE EMPTY" without coordinates.
std::string simple(std::string_view type, const xmlNode* n) {
  std::string c = coordinates(n, nameOf(n));
  return std::string(type) + (c.empty() ? " EMPTY" : "(" + c + ")");
}

// A Multi* of members of its one type is the WKT MULTI* (GEOS 3.11 relates
// no GEOMETRYCOLLECTION): each member's WKT without its keyword. Anything
// else, MultiGeometry included, is a GEOMETRYCOLLECTION.
std::string collection(std::string_view name, const std::vector<std::string>& members) {
  std::string_view type = name == "MultiPoint"                                   ? "POINT"
                          : name == "MultiCurve" || name == "MultiLineString"    ? "LINESTRING"
                          : name == "MultiSurface" || name == "MultiPolygon"     ? "POLYGON"
                                                                                 : "";
  auto ofType = [&](const std::string& m) { return !type.empty() && m.starts_with(type) && m[type.size()] == '('; };
  bool multi = std::all_of(members.begin(), members.end(), ofType);
  std::string out = multi ? "MULTI" + std::string(type) : "GEOMETRYCOLLECTION";
  if (members.empty()) return out + " EMPTY";
  out += "(";
  for (size_t i = 0; i < members.size(); ++i) {
    out += (i ? ", " : "") + (multi ? members[i].substr(type.size()) : members[i]);
  }
  return out + ")";
}

// The WKT of one GML geometry element.
std::string wktOf(const xmlNode* n) {
  std::string_view name = nameOf(n);
  if (name == "Point") return simple("POINT", n);
  if (name == "LineString" || name == "LinearRing") return simple("LINESTRING", n);
  if (name == "Polygon") {
    std::string out = "POLYGON(";
    bool first = true;
    for (const xmlNode* b : elements(n)) {
      std::string_view bn = nameOf(b);
      bool outer = bn == "exterior" || bn == "outerBoundaryIs";
      if (!outer && bn != "interior" && bn != "innerBoundaryIs") continue;
      if (outer != first) throw GeoError("GML polygon without its exterior first");
      out += (first ? "" : ", ") + ring(b);
      first = false;
    }
    if (first) return "POLYGON EMPTY";
    return out + ")";
  }
  if (name.starts_with("Multi")) {
    // Members are <xMember> with one geometry each, or <xMembers> with several.
    std::vector<std::string> members;
    for (const xmlNode* m : elements(n)) {
      for (const xmlNode* g : elements(m)) members.push_back(wktOf(g));
    }
    return collection(name, members);
  }
  throw GeoError("unsupported GML geometry " + std::string(name));
}

void appendCoordinates(std::string& out, const GEOSGeometry* g) {
  const GEOSCoordSequence* s = geos().GEOSGeom_getCoordSeq_r(context(), g);
  unsigned size = 0;
  if (!s || !geos().GEOSCoordSeq_getSize_r(context(), s, &size)) throw GeoError("GEOS failed to give coordinates");
  for (unsigned i = 0; i < size; ++i) {
    double x = 0, y = 0;
    geos().GEOSCoordSeq_getXY_r(context(), s, i, &x, &y);
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%s%.15g %.15g", i ? " " : "", x, y);
    out += buffer;
  }
}

void appendGml(std::string& out, const GEOSGeometry* g, const std::string& attributes) {
  auto open = [&](std::string_view name) { out += "<gml:" + std::string(name) + attributes + ">"; };
  auto ringOf = [&](const GEOSGeometry* r, std::string_view where) {
    out += "<gml:" + std::string(where) + "><gml:LinearRing><gml:posList>";
    appendCoordinates(out, r);
    out += "</gml:posList></gml:LinearRing></gml:" + std::string(where) + ">";
  };
  int type = geos().GEOSGeomTypeId_r(context(), g);
  switch (type) {
    case GEOS_POINT:
      open("Point");
      out += "<gml:pos>";
      if (geos().GEOSisEmpty_r(context(), g) != 1) appendCoordinates(out, g);
      out += "</gml:pos></gml:Point>";
      return;
    case GEOS_LINESTRING:
    case GEOS_LINEARRING:
      open("LineString");
      out += "<gml:posList>";
      appendCoordinates(out, g);
      out += "</gml:posList></gml:LineString>";
      return;
    case GEOS_POLYGON:
      open("Polygon");
      if (geos().GEOSisEmpty_r(context(), g) != 1) {
        ringOf(geos().GEOSGetExteriorRing_r(context(), g), "exterior");
        for (int i = 0; i < geos().GEOSGetNumInteriorRings_r(context(), g); ++i) {
          ringOf(geos().GEOSGetInteriorRingN_r(context(), g, i), "interior");
        }
      }
      out += "</gml:Polygon>";
      return;
    default: {
      std::string_view collection = type == GEOS_MULTIPOINT        ? "MultiPoint"
                                    : type == GEOS_MULTILINESTRING ? "MultiCurve"
                                    : type == GEOS_MULTIPOLYGON    ? "MultiSurface"
                                                                   : "MultiGeometry";
      std::string_view member = type == GEOS_MULTIPOINT        ? "pointMember"
                                : type == GEOS_MULTILINESTRING ? "curveMember"
                                : type == GEOS_MULTIPOLYGON    ? "surfaceMember"
                                                               : "geometryMember";
      open(collection);
      for (int i = 0; i < geos().GEOSGetNumGeometries_r(context(), g); ++i) {
        out += "<gml:" + std::string(member) + ">";
        appendGml(out, geos().GEOSGetGeometryN_r(context(), g, i), "");
        out += "</gml:" + std::string(member) + ">";
      }
      out += "</gml:" + std::string(collection) + ">";
    }
  }
}

}  // namespace

Geometry readGml(std::string_view lexical) {
  if (lexical.size() > kMaxLiteralBytes) throw GeoError("GML literal over the size limit");
  if (lexical.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    Geometry empty = readWkt("");
    empty.serialization = Serialization::Gml;
    return empty;
  }
  // No network, no entity expansion (the default), no messages on stderr.
  Doc doc(xmlReadMemory(lexical.data(), static_cast<int>(lexical.size()), nullptr, nullptr,
                        XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING),
          xmlFreeDoc);
  const xmlNode* root = doc ? xmlDocGetRootElement(doc.get()) : nullptr;
  if (!root) throw GeoError("malformed GML: not well-formed XML");
  std::string srs = attribute(root, "srsName");
  std::string wkt = srs.empty() ? "" : "<" + srs + "> ";
  Geometry g = readWkt(wkt + wktOf(root));
  g.serialization = Serialization::Gml;
  return g;
}

std::string writeGml(const GEOSGeometry* g, Crs crs) {
  GeometryPtr converted;
  if (crs != Crs::Crs84) g = (converted = fromCrs84(g, crs)).get();
  std::string out;
  appendGml(out, g, " xmlns:gml=\"http://www.opengis.net/gml/3.2\" srsName=\"" + crsIri(crs) + "\"");
  return out;
}

}  // namespace gsparql::engine::geo
