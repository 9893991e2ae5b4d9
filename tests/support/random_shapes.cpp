#include "support/random_shapes.h"

#include <cmath>
#include <numbers>

namespace gsparql::test {
namespace {

double half(double v) { return std::round(v * 2) / 2; }

// A closed ring around (cx, cy): `corners` points at increasing angles, at
// random radii within [least, most], rounded to halves.
std::string ring(std::mt19937& random, double cx, double cy, int corners, double least, double most) {
  std::uniform_real_distribution<double> radius(least, most);
  std::string text = "(";
  std::string first;
  for (int i = 0; i < corners; ++i) {
    const double angle = 2 * std::numbers::pi * i / corners, r = radius(random);
    const std::string corner = wktPoint(half(cx + r * std::cos(angle)), half(cy + r * std::sin(angle)));
    if (i == 0) first = corner;
    text += corner + ", ";
  }
  return text + first + ")";
}

}  // namespace

std::string wktPoint(double x, double y) { return std::to_string(x) + " " + std::to_string(y); }

std::string randomPolygonalWkt(std::mt19937& random, int i, double cx, double cy) {
  std::uniform_int_distribution<int> corners(3, 24);
  switch (i % 4) {
    case 0:
      return "POLYGON(" + ring(random, cx, cy, corners(random), 1, 4) + ")";
    case 1:  // a hole, well inside
      return "POLYGON(" + ring(random, cx, cy, corners(random), 3, 4) + ", " + ring(random, cx, cy, 4, 1, 1.5) + ")";
    case 2:  // two parts apart
      return "MULTIPOLYGON((" + ring(random, cx, cy, corners(random), 1, 2.5) + "), (" +
             ring(random, cx + 5, cy, corners(random), 1, 2) + "))";
    default:  // a rectangle (GEOS has shortcuts for those)
      return "POLYGON((" + wktPoint(cx, cy) + ", " + wktPoint(cx + 3, cy) + ", " + wktPoint(cx + 3, cy + 2) + ", " +
             wktPoint(cx, cy + 2) + ", " + wktPoint(cx, cy) + "))";
  }
}

namespace {

std::string feature(const std::string& kind, int i, const std::string& wkt) {
  const std::string geo = "http://www.opengis.net/ont/geosparql#";
  const std::string s = "<http://e/" + kind + std::to_string(i) + ">";
  return s + " <http://e/type> <http://e/" + kind + "> .\n" + s + " <" + geo + "asWKT> \"" + wkt + "\"^^<" + geo +
         "wktLiteral> .\n";
}

}  // namespace

std::string shapesAndPoints(int shapes, int side, int points) {
  std::mt19937 random(17);
  std::uniform_int_distribution<int> at(5, side - 5), grid(0, 2 * side);
  std::string data;
  std::vector<std::string> wkts;
  for (int i = 0; i < shapes; ++i) {
    wkts.push_back(randomPolygonalWkt(random, i, at(random), at(random)));
    data += feature("Shape", i, wkts.back());
  }
  int point = 0;
  for (const std::string& wkt : wkts) {
    const size_t open = wkt.find_last_of('(');
    const std::string corner = wkt.substr(open + 1, wkt.find(',', open) - open - 1);
    data += feature("Point", point++, "POINT(" + corner + ")");
  }
  while (point < points) data += feature("Point", point++, "POINT(" + wktPoint(grid(random) / 2.0, grid(random) / 2.0) + ")");
  return data;
}

}  // namespace gsparql::test
