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

}  // namespace gsparql::test
