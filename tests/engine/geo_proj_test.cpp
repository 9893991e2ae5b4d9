// CRSs through PROJ and geodesic metres (engine/geo/projection.cpp) against
// answers computed here: spherical Mercator's closed form for EPSG:3857,
// and PROJ's own command-line tools (cs2cs, geod; Debian's proj-bin, a test
// package of scripts/install-deps.sh) for UTM and geodesics.
#include <doctest/doctest.h>

#include <cmath>
#include <algorithm>
#include <map>
#include <regex>
#include <tuple>
#include <vector>
#include <numbers>
#include <sstream>
#include <string>

#include "engine/expr/expression.h"
#include "engine/geo/geometry.h"
#include "engine/geo/operations.h"
#include "parser/parse.h"
#include "support/test_support.h"

namespace {

using namespace gsparql;

const std::string kGeo = "http://www.opengis.net/ont/geosparql#";
const std::string kGeof = "http://www.opengis.net/def/function/geosparql/";
const std::string kEpsg = "http://www.opengis.net/def/crs/EPSG/0/";
const std::string kUom = "http://www.opengis.net/def/uom/OGC/1.0/";

std::string lit(const std::string& wkt) { return "\"" + wkt + "\"^^<" + kGeo + "wktLiteral>"; }
std::string call(const std::string& f, const std::string& args) { return "<" + kGeof + f + ">(" + args + ")"; }

const sparql::Op* extendOf(const sparql::Op& op) {
  if (op.kind == sparql::Op::Kind::Extend) return &op;
  for (const auto& child : op.children) {
    if (const sparql::Op* found = extendOf(*child)) return found;
  }
  return nullptr;
}

struct NoRow : engine::expr::Solution {
  std::optional<std::string_view> term(size_t) const override { return std::nullopt; }
};

engine::expr::Result eval(const std::string& expr) {
  sparql::Query q = sparql::parseQuery("SELECT (" + expr + " AS ?r) {}");
  engine::expr::Expression e(extendOf(*q.pattern)->bindings[0].expr, {});
  engine::expr::Environment env;
  return e.evaluate(NoRow{}, env);
}

double number(const engine::expr::Result& r) {
  REQUIRE(r);
  return std::stod(r->substr(1, r->find('"', 1) - 1));
}

// The numbers a PROJ tool prints for one input line; empty where it is not installed.
std::vector<double> projTool(const std::string& command, const std::string& input) {
  const test::ProcessResult run = test::shell("printf '%s\\n' " + test::shellQuoted(input) + " | " + command);
  std::vector<double> out;
  if (run.exitCode != 0) return out;
  std::istringstream numbers(run.output);
  for (double v; numbers >> v;) out.push_back(v);
  return out;
}

TEST_CASE("EPSG:3857 is read through PROJ: spherical Mercator's inverse") {
  const double r = 6'378'137.0;
  for (auto [x, y] : {std::pair{0.0, 0.0}, {261'845.7, 6'250'564.3}, {-8'238'310.2, 4'970'071.6}, {1.5e7, -1.2e7}}) {
    const double lon = x / r * 180 / std::numbers::pi;
    const double lat = (2 * std::atan(std::exp(y / r)) - std::numbers::pi / 2) * 180 / std::numbers::pi;
    const std::string projected = lit("<" + kEpsg + "3857> POINT(" + std::to_string(x) + " " + std::to_string(y) + ")");
    const std::string crs84 = lit("POINT(" + std::to_string(lon) + " " + std::to_string(lat) + ")");
    CAPTURE(projected);
    CHECK(number(eval(call("distance", projected + ", " + crs84 + ", <" + kUom + "degree>"))) < 1e-6);
    // Its own coordinates come back: minX and minY are in the literal's CRS.
    CHECK(number(eval(call("minX", projected))) == doctest::Approx(x).epsilon(1e-9));
    CHECK(number(eval(call("maxY", projected))) == doctest::Approx(y).epsilon(1e-9));
  }
}

TEST_CASE("geof:transform writes a geometry in another CRS: spherical Mercator's forward form, cs2cs, axis order") {
  const double r = 6'378'137.0;
  for (auto [lon, lat] : {std::pair{0.0, 0.0}, {2.35, 48.86}, {-74.0, 40.7}, {151.2, -33.9}}) {
    const double x = r * lon * std::numbers::pi / 180;
    const double y = r * std::log(std::tan(std::numbers::pi / 4 + lat * std::numbers::pi / 360));
    const std::string point = lit("POINT(" + std::to_string(lon) + " " + std::to_string(lat) + ")");
    CAPTURE(point);
    for (const std::string crs : {"<" + kEpsg + "3857>", "\"" + kEpsg + "3857\"^^<http://www.w3.org/2001/XMLSchema#anyURI>"}) {
      const auto projected = eval(call("transform", point + ", " + crs));
      REQUIRE(projected);
      CHECK(projected->find("<" + kEpsg + "3857> POINT") != std::string::npos);
      // minX and minY read the literal's own coordinates.
      CHECK(number(eval(call("minX", *projected))) == doctest::Approx(x).epsilon(1e-9).scale(1));
      CHECK(number(eval(call("minY", *projected))) == doctest::Approx(y).epsilon(1e-9).scale(1));
    }
  }
  // EPSG:4326 is latitude first; back to CRS84 (its IRI left out, the default).
  CHECK(eval(call("transform", lit("POINT(20 10)") + ", <" + kEpsg + "4326>")) == lit("<" + kEpsg + "4326> POINT (10 20)"));
  CHECK(eval(call("transform", lit("<" + kEpsg + "4326> POINT(10 20)") + ", <http://www.opengis.net/def/crs/OGC/1.3/CRS84>")) ==
        lit("POINT (20 10)"));
  const std::vector<double> utm = projTool("cs2cs -f %.6f OGC:CRS84 EPSG:32633", "15.3 52.1");
  if (utm.size() < 2) {
    MESSAGE("cs2cs (proj-bin) is not installed: the comparison with PROJ's tool is skipped");
  } else {
    const auto projected = eval(call("transform", lit("POINT(15.3 52.1)") + ", <" + kEpsg + "32633>"));
    REQUIRE(projected);
    CHECK(number(eval(call("minX", *projected))) == doctest::Approx(utm[0]).epsilon(1e-9).scale(1));
    CHECK(number(eval(call("minY", *projected))) == doctest::Approx(utm[1]).epsilon(1e-9).scale(1));
  }
  // Errors: a CRS PROJ does not know, a unit or a string for the CRS, GeoJSON in a CRS other than CRS84.
  CHECK_FALSE(eval(call("transform", lit("POINT(1 2)") + ", <" + kEpsg + "999999>")));
  CHECK_FALSE(eval(call("transform", lit("POINT(1 2)") + ", \"" + kEpsg + "3857\"")));
  CHECK_FALSE(eval(call("transform", lit("POINT(1 2)") + ", <" + kUom + "metre>")));
  const std::string json = "\"{\\\"type\\\":\\\"Point\\\",\\\"coordinates\\\":[1,2]}\"^^<" + kGeo + "geoJSONLiteral>";
  CAPTURE(json);
  CHECK_FALSE(eval(call("transform", json + ", <" + kEpsg + "3857>")));
  CHECK(eval(call("transform", json + ", <http://www.opengis.net/def/crs/OGC/1.3/CRS84>")));
}

TEST_CASE("a UTM literal agrees with cs2cs, and relations hold across CRSs") {
  const std::string utm = "<" + kEpsg + "32633> ";
  const std::vector<double> corner = projTool("cs2cs -f %.10f EPSG:32633 OGC:CRS84", "400000 5800000");
  if (corner.size() < 2) {
    MESSAGE("cs2cs (proj-bin) is not installed: the comparison with PROJ's tool is skipped");
  } else {
    const std::string point = lit(utm + "POINT(400000 5800000)");
    const std::string expected = lit("POINT(" + std::to_string(corner[0]) + " " + std::to_string(corner[1]) + ")");
    CHECK(number(eval(call("distance", point + ", " + expected + ", <" + kUom + "degree>"))) < 1e-6);
  }
  // A square of 10 km in UTM 33N and points in CRS84 and EPSG:4326, inside it and not.
  const std::string square = lit(utm + "POLYGON((400000 5800000, 410000 5800000, 410000 5810000, 400000 5810000, 400000 5800000))");
  const std::vector<double> middle = projTool("cs2cs -f %.10f EPSG:32633 OGC:CRS84", "405000 5805000");
  if (middle.size() >= 2) {
    const std::string inside = lit("POINT(" + std::to_string(middle[0]) + " " + std::to_string(middle[1]) + ")");
    const std::string inside4326 =
        lit("<" + kEpsg + "4326> POINT(" + std::to_string(middle[1]) + " " + std::to_string(middle[0]) + ")");
    CHECK(eval(call("sfContains", square + ", " + inside)) == eval(call("sfEquals", inside + ", " + inside)));
    CHECK(eval(call("sfWithin", inside4326 + ", " + square)) == eval(call("sfEquals", inside + ", " + inside)));
    CHECK(number(eval(call("distance", square + ", " + inside + ", <" + kUom + "metre>"))) == 0);
  }
  CHECK(eval(call("sfContains", square + ", " + lit("POINT(0 0)"))) == eval(call("sfEquals", lit("POINT(0 0)") + ", " + lit("POINT(1 1)"))));
  // A result is written in its first argument's CRS (the envelope, taken in
  // CRS84, is no longer a square there).
  const auto envelope = eval(call("envelope", square));
  REQUIRE(envelope);
  CHECK(envelope->find(kEpsg + "32633> POLYGON") != std::string::npos);
  CHECK(eval(call("sfIntersects", square + ", " + *envelope)) == eval(call("sfEquals", square + ", " + square)));
  CHECK(eval(call("getSRID", square)) == "\"" + kEpsg + "32633\"^^<http://www.w3.org/2001/XMLSchema#anyURI>");
}

TEST_CASE("distances in metres are geodesics on WGS 84, as PROJ's geod gives them") {
  const std::vector<std::array<double, 4>> pairs = {
      {48.8566, 2.3522, 51.5072, -0.1276}, {0, 0, 1, 0}, {40.7, -74.0, -33.9, 151.2}, {-89.5, 10, 89.5, -170}};
  for (const auto& [lat1, lon1, lat2, lon2] : pairs) {
    std::ostringstream line;
    line.precision(10);
    line << lat1 << " " << lon1 << " " << lat2 << " " << lon2;
    const std::vector<double> geod = projTool("geod -I -f %.6f +ellps=WGS84 +units=m", line.str());
    auto point = [](double lon, double lat) { return lit("POINT(" + std::to_string(lon) + " " + std::to_string(lat) + ")"); };
    const double metres = number(eval(call("distance", point(lon1, lat1) + ", " + point(lon2, lat2) + ", <" + kUom + "metre>")));
    CAPTURE(line.str());
    if (geod.size() < 3) {
      MESSAGE("geod (proj-bin) is not installed: the comparison with PROJ's tool is skipped");
      continue;
    }
    CHECK(std::abs(metres - geod[2]) < 1e-3);  // geod prints millimetres
  }
}

using Ring = std::vector<std::pair<double, double>>;  // longitude, latitude

// What GeographicLib's Planimeter (Debian's geographiclib-tools, an
// implementation of Karney's geodesics apart from PROJ's) gives for `ring`
// on WGS 84: {perimeter, area} of the polygon, or {length} of the line
// (`line`); empty where it is not installed.
std::vector<double> planimeter(const Ring& ring, bool line) {
  std::ostringstream in;
  in.precision(12);
  for (const auto& [lon, lat] : ring) in << lat << " " << lon << "\n";
  const test::ProcessResult run =
      test::shell("printf '%s' " + test::shellQuoted(in.str()) + " | Planimeter" + (line ? " -l" : ""));
  std::vector<double> out;
  if (run.exitCode != 0) return out;
  std::istringstream numbers(run.output);
  for (double v; numbers >> v;) out.push_back(v);
  if (!out.empty()) out.erase(out.begin());  // the number of points
  for (double& v : out) v = std::abs(v);      // a clockwise ring's area is negative
  return out;
}

std::string wktRing(const Ring& ring) {
  std::string wkt = "(";
  for (const auto& [lon, lat] : ring) wkt += (wkt.size() > 1 ? ", " : "") + std::to_string(lon) + " " + std::to_string(lat);
  return wkt + ")";
}

TEST_CASE("areas and lengths in metres are those of geodesic edges on WGS 84, as GeographicLib's Planimeter gives them") {
  const Ring square = {{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0, 0}};
  const Ring clockwise = {{0, 0}, {0, 1}, {1, 1}, {1, 0}, {0, 0}};
  const Ring north = {{5, 55}, {15, 55}, {15, 70}, {5, 70}, {5, 55}};
  const Ring outer = {{0, 0}, {10, 0}, {10, 10}, {0, 10}, {0, 0}};
  const Ring hole = {{2, 2}, {2, 4}, {4, 4}, {4, 2}, {2, 2}};
  const Ring south = {{-60, -40}, {-50, -42}, {-48, -30}, {-61, -33}, {-60, -40}};
  const Ring path = {{2.35, 48.86}, {-0.13, 51.51}, {-3.7, 40.42}, {13.4, 52.52}};
  std::map<std::string, std::vector<double>> expected;  // by name: Planimeter's numbers
  for (const auto& [name, ring, line] : std::vector<std::tuple<std::string, Ring, bool>>{
           {"square", square, false}, {"clockwise", clockwise, false}, {"north", north, false},
           {"outer", outer, false}, {"hole", hole, false}, {"south", south, false}, {"path", path, true}}) {
    expected[name] = planimeter(ring, line);
    if (expected[name].empty()) {
      MESSAGE("Planimeter (geographiclib-tools) is not installed: the comparison with GeographicLib is skipped");
      return;
    }
  }
  const auto measure = [](const std::string& f, const std::string& wkt) {
    return number(eval(call(f, lit(wkt) + ", <" + kUom + "metre>")));
  };
  const auto area = [&](const std::string& name) { return expected.at(name)[1]; };
  const auto perimeter = [&](const std::string& name) { return expected.at(name)[0]; };
  for (const std::string name : {"square", "clockwise", "north", "south"}) {
    const Ring& ring = name == "square" ? square : name == "clockwise" ? clockwise : name == "north" ? north : south;
    CAPTURE(name);
    CHECK(measure("area", "POLYGON(" + wktRing(ring) + ")") == doctest::Approx(area(name)).epsilon(1e-9));
    CHECK(measure("length", "POLYGON(" + wktRing(ring) + ")") == doctest::Approx(perimeter(name)).epsilon(1e-9));
  }
  // Holes: taken out of the area, added to the length; several polygons and collections add up.
  const std::string holed = "POLYGON(" + wktRing(outer) + ", " + wktRing(hole) + ")";
  CHECK(measure("area", holed) == doctest::Approx(area("outer") - area("hole")).epsilon(1e-9));
  CHECK(measure("length", holed) == doctest::Approx(perimeter("outer") + perimeter("hole")).epsilon(1e-9));
  const std::string two = "MULTIPOLYGON((" + wktRing(north) + "), (" + wktRing(south) + "))";
  CHECK(measure("area", two) == doctest::Approx(area("north") + area("south")).epsilon(1e-9));
  std::string line = "LINESTRING" + wktRing(path);
  CHECK(measure("length", line) == doctest::Approx(expected.at("path")[0]).epsilon(1e-9));
  CHECK(measure("area", line) == 0);
  const std::string mixed = "GEOMETRYCOLLECTION(POINT(3 3), " + line + ", " + holed + ")";
  CHECK(measure("area", mixed) == doctest::Approx(area("outer") - area("hole")).epsilon(1e-9));
  CHECK(measure("length", mixed) ==
        doctest::Approx(expected.at("path")[0] + perimeter("outer") + perimeter("hole")).epsilon(1e-9));
  CHECK(measure("length", "POINT(3 3)") == 0);
  // Beyond latitude 90 there is no geodesic: an error (unbound), not NaN, in metres; degrees are planar.
  const std::string beyond = lit("POLYGON((0 80, 10 80, 10 100, 0 100, 0 80))");
  CHECK_FALSE(eval(call("area", beyond + ", <" + kUom + "metre>")));
  CHECK_FALSE(eval(call("length", beyond + ", <" + kUom + "metre>")));
  CHECK_FALSE(eval(call("distance", lit("POINT(0 100)") + ", " + lit("POINT(0 0)") + ", <" + kUom + "metre>")));
  CHECK(number(eval(call("area", beyond + ", <" + kUom + "degree>"))) == doctest::Approx(200));
}

TEST_CASE("a buffer in metres keeps its distance on WGS 84 at every latitude, as PROJ's geod measures it") {
  for (const auto& [lon, lat] : std::vector<std::pair<double, double>>{{0, 0}, {10, 45}, {10, 60}, {-70, -80}, {179.99, 0}}) {
    for (const double radius : {10'000.0, 250'000.0}) {
      const std::string point = "POINT(" + std::to_string(lon) + " " + std::to_string(lat) + ")";
      CAPTURE(point);
      CAPTURE(radius);
      const engine::expr::Result buffer =
          eval(call("buffer", lit(point) + ", " + std::to_string(radius) + ", <" + kUom + "metre>"));
      REQUIRE(buffer);
      // The exterior ring's vertices, each at `radius` from the point.
      const std::string wkt = buffer->substr(1, buffer->find('"', 1) - 1);
      CHECK(wkt.starts_with("POLYGON"));
      std::istringstream coordinates(std::regex_replace(wkt, std::regex("[^0-9.eE+-]+"), " "));
      std::ostringstream lines;
      lines.precision(15);
      std::vector<double> xs;
      for (double x, y; coordinates >> x >> y;) {
        lines << lat << " " << lon << " " << y << " " << x << "\n";
        xs.push_back(x);
      }
      REQUIRE(xs.size() > 8);
      // Across the antimeridian the ring goes on beyond 180 rather than wrap to -180.
      CHECK(*std::max_element(xs.begin(), xs.end()) - *std::min_element(xs.begin(), xs.end()) < 180);
      std::string input = lines.str();
      input.pop_back();
      const std::vector<double> geod = projTool("geod -I -f %.6f +ellps=WGS84 +units=m", input);
      if (geod.empty()) {
        MESSAGE("geod (proj-bin) is not installed: the comparison with PROJ's tool is skipped");
        return;
      }
      REQUIRE(geod.size() == 3 * xs.size());
      for (size_t i = 0; i < xs.size(); ++i) CHECK(geod[3 * i + 2] == doctest::Approx(radius).epsilon(1e-6));
      // Its area, on the ellipsoid, about a circle's.
      const double area = number(eval(call("area", *buffer + ", <" + kUom + "metre>")));
      CHECK(area == doctest::Approx(std::numbers::pi * radius * radius).epsilon(0.01));
    }
  }
  // A line's and a polygon's buffers hold them; degrees stay planar.
  const std::string line = lit("LINESTRING(10 60, 11 60.2)");
  const engine::expr::Result lineBuffer = eval(call("buffer", line + ", 5000, <" + kUom + "metre>"));
  REQUIRE(lineBuffer);
  CHECK(eval(call("sfContains", *lineBuffer + ", " + line)) == "\"true\"^^<http://www.w3.org/2001/XMLSchema#boolean>");
  CHECK(number(eval(call("area", *eval(call("buffer", lit("POINT(10 60)") + ", 1, <" + kUom + "degree>")) + ", <" +
                                    kUom + "degree>"))) == doctest::Approx(std::numbers::pi).epsilon(0.02));
  // What the projection cannot give: errors (unbound), not distorted shapes.
  const auto bufferOf = [](const std::string& wkt, const std::string& radius) {
    return eval(call("buffer", lit(wkt) + ", " + radius + ", <" + kUom + "metre>"));
  };
  CHECK_FALSE(bufferOf("POINT(10 60)", "1e9"));                                          // beyond the Earth
  CHECK_FALSE(bufferOf("POINT(10 60)", "\"NaN\"^^<http://www.w3.org/2001/XMLSchema#double>"));
  CHECK_FALSE(bufferOf("POINT(10 60)", "4000000"));                                      // around the north pole
  CHECK_FALSE(bufferOf("POINT(0 -89.99)", "10000"));                                     // around the south pole
  CHECK_FALSE(bufferOf("LINESTRING(-179 0, 179 0)", "1000"));                            // 358 degrees wide
  CHECK(bufferOf("POLYGON EMPTY", "1000") == lit("POLYGON EMPTY"));
  CHECK(bufferOf("POINT(10 60)", "-10") == lit("POLYGON EMPTY"));
}

TEST_CASE("an unknown EPSG code, or one of no longitude and latitude or easting and northing, is an error that names it") {
  // 7030: an ellipsoid; 4978 and 4332: geocentric CRSs (X, Y, Z from the Earth's centre), whose (1, 2) PROJ
  // took to a longitude and back to another point (the geometry fuzzer's finding); 5703: a vertical CRS.
  for (const std::string& crs : {kEpsg + "999999", kEpsg + "7030", kEpsg + "4978", kEpsg + "4332", kEpsg + "5703",
                                 std::string("urn:ogc:def:crs:EPSG::0")}) {
    CAPTURE(crs);
    std::string reason;
    try {
      engine::geo::readWkt("<" + crs + "> POINT(1 2)");
    } catch (const engine::geo::GeoError& e) {
      reason = e.what();
    }
    CHECK(reason.find("unsupported CRS <" + crs + ">") != std::string::npos);
    if (crs == kEpsg + "4978") {
      CHECK(reason.find("EPSG:4978 is a geocentric CRS: a geometry needs a longitude") != std::string::npos);
    }
    if (crs == kEpsg + "5703") CHECK(reason.find("EPSG:5703 is a vertical CRS") != std::string::npos);
    CHECK_FALSE(eval(call("isEmpty", lit("<" + crs + "> POINT(1 2)"))));
  }
  // A coordinate PROJ cannot transform (cs2cs prints "* *" for it) is an error that says so.
  std::string reason;
  try {
    engine::geo::readWkt("<" + kEpsg + "32633> POINT(1e30 1e30)");
  } catch (const engine::geo::GeoError& e) {
    reason = e.what();
  }
  CHECK(reason.find("PROJ cannot transform") != std::string::npos);
}

}  // namespace
