// Points placed in polygons by ray crossing (engine/geo/ray_crossing.h, the
// GPU's spatial join: engine/gpu/gpu_point_locator.cu) against GEOS's
// prepared predicates, which the CPU's spatial join asks: every place it
// decides is the one GEOS finds, on shapes of a grid of halves where points
// on vertices, on edges and on horizontal edges are common.
#include <doctest/doctest.h>

#include <array>
#include <random>
#include <string>
#include <vector>

#include "engine/geo/geometry.h"
#include "engine/geo/geos_library.h"
#include "engine/geo/point_locator.h"
#include "engine/geo/spatial_matcher.h"
#include "support/random_shapes.h"

namespace {

using namespace gsparql::engine::geo;

const std::string kGeof = "<http://www.opengis.net/def/function/geosparql/";

std::string literal(const std::string& wkt) {
  return "\"" + wkt + "\"^^<http://www.opengis.net/ont/geosparql#wktLiteral>";
}

struct Shapes {
  std::vector<std::string> wkt;
  SpatialMatcher matcher{kGeof + "sfIntersects>", false};
  RingSet rings;

  explicit Shapes(std::mt19937& random) {
    std::uniform_int_distribution<int> at(4, 16);
    for (int i = 0; i < 40; ++i) wkt.push_back(gsparql::test::randomPolygonalWkt(random, i, at(random), at(random)));
    for (uint32_t i = 0; i < wkt.size(); ++i) REQUIRE(matcher.add(i, literal(wkt[i])));
    std::optional<RingSet> read = matcher.pointShapes();
    REQUIRE(read);
    rings = std::move(*read);
  }

  // The shapes' vertices and their edges' midpoints, then random points of the grid.
  std::vector<std::array<double, 2>> points(std::mt19937& random) const {
    std::vector<std::array<double, 2>> out;
    for (size_t v = 0; v + 1 < rings.x.size(); ++v) {
      out.push_back({rings.x[v], rings.y[v]});
      out.push_back({(rings.x[v] + rings.x[v + 1]) / 2, (rings.y[v] + rings.y[v + 1]) / 2});
    }
    std::uniform_int_distribution<int> grid(0, 50);
    for (int i = 0; i < 3000; ++i) out.push_back({grid(random) / 2.0, grid(random) / 2.0});
    return out;
  }
};

struct Prepared {
  Geometry geometry;
  const GEOSPreparedGeometry* prepared;
  explicit Prepared(const std::string& wkt)
      : geometry(readWkt(wkt)), prepared(geos().GEOSPrepare_r(context(), geometry.get())) {}
  ~Prepared() { geos().GEOSPreparedGeom_destroy_r(context(), prepared); }
};

// The place of a point counted over 32 shares of the shape's segments (every
// 32nd each, as a warp's lanes take them), merged.
PointPlace placeInShares(const RingSet& rings, uint32_t shape, double x, double y) {
  const Box& b = rings.boxes[shape];
  if (x < b.minX || x > b.maxX || y < b.minY || y > b.maxY) return PointPlace::Exterior;
  RayCrossing total{x, y};
  for (uint32_t share = 0; share < 32; ++share) {
    RayCrossing part{x, y};
    for (uint32_t r = rings.shapeRings[shape]; r < rings.shapeRings[shape + 1]; ++r) {
      for (uint32_t v = rings.ringStarts[r] + share; v + 1 < rings.ringStarts[r + 1]; v += 32) {
        part.count(rings.x[v], rings.y[v], rings.x[v + 1], rings.y[v + 1]);
      }
    }
    total.merge(part.crossings, part.onSegment, part.undecided);
  }
  return total.place();
}

}  // namespace

TEST_CASE("a point placed by ray crossing is where GEOS's prepared predicates put it, or left undecided") {
  std::mt19937 random(11);
  const Shapes shapes(random);
  REQUIRE(shapes.rings.shapes() == shapes.wkt.size());
  std::array<int, 4> seen{};
  for (uint32_t s = 0; s < shapes.wkt.size(); ++s) {
    const Prepared shape(shapes.wkt[s]);
    for (const auto& [x, y] : shapes.points(random)) {
      const PointPlace place = placeInShape(shapes.rings, s, x, y);
      CHECK(placeInShares(shapes.rings, s, x, y) == place);
      ++seen[static_cast<int>(place)];
      if (place == PointPlace::Undecided) continue;
      const Geometry point = readWkt("POINT(" + gsparql::test::wktPoint(x, y) + ")");
      const bool contains = geos().GEOSPreparedContains_r(context(), shape.prepared, point.get()) == 1;
      const bool intersects = geos().GEOSPreparedIntersects_r(context(), shape.prepared, point.get()) == 1;
      CAPTURE(shapes.wkt[s]);
      CAPTURE(gsparql::test::wktPoint(x, y));
      CHECK(contains == (place == PointPlace::Interior));
      CHECK(intersects == (place != PointPlace::Exterior));
    }
  }
  const int decided = seen[0] + seen[1] + seen[2];
  CHECK(seen[static_cast<int>(PointPlace::Interior)] > 1000);
  CHECK(seen[static_cast<int>(PointPlace::Boundary)] > 200);  // vertices and horizontal edges: certain
  // Points on slanted edges are undecided; few others.
  CHECK(seen[static_cast<int>(PointPlace::Undecided)] > 0);
  CHECK(seen[static_cast<int>(PointPlace::Undecided)] < decided / 20);
}

TEST_CASE("an undecided point is decided by GEOS, and a point on the boundary is in sfIntersects, not in sfWithin") {
  std::mt19937 random(5);
  const Shapes shapes(random);
  SpatialMatcher within(kGeof + "sfWithin>", false);  // sfWithin(point, added)
  for (uint32_t i = 0; i < shapes.wkt.size(); ++i) REQUIRE(within.add(i, literal(shapes.wkt[i])));
  REQUIRE(within.pointShapes());
  SpatialMatcher intersects(kGeof + "sfIntersects>", true);
  for (uint32_t i = 0; i < shapes.wkt.size(); ++i) REQUIRE(intersects.add(i, literal(shapes.wkt[i])));
  int undecided = 0;
  for (uint32_t s = 0; s < shapes.wkt.size(); ++s) {
    CHECK(within.itemOfShape(s) == s);
    const Prepared shape(shapes.wkt[s]);
    for (const auto& [x, y] : shapes.points(random)) {
      const PointPlace place = placeInShape(shapes.rings, s, x, y);
      const Geometry point = readWkt("POINT(" + gsparql::test::wktPoint(x, y) + ")");
      const std::string term = literal("POINT(" + gsparql::test::wktPoint(x, y) + ")");
      CAPTURE(shapes.wkt[s]);
      CAPTURE(term);
      const auto read = [&]() -> std::string_view { return term; };
      CHECK(within.holdsForPoint(s, place, read) ==
            (geos().GEOSPreparedContains_r(context(), shape.prepared, point.get()) == 1));
      CHECK(intersects.holdsForPoint(s, place, read) ==
            (geos().GEOSPreparedIntersects_r(context(), shape.prepared, point.get()) == 1));
      undecided += place == PointPlace::Undecided;
    }
  }
  CHECK(undecided > 0);
}

TEST_CASE("shapes for a point locator only where every indexed geometry is polygonal and the place decides the relation") {
  const std::string square = literal("POLYGON((0 0, 2 0, 2 2, 0 2, 0 0))");
  const auto shapesOf = [](const std::string& relation, bool addedFirst, const std::vector<std::string>& terms) {
    SpatialMatcher matcher(kGeof + relation + ">", addedFirst);
    for (uint32_t i = 0; i < terms.size(); ++i) matcher.add(i, terms[i]);
    return matcher.pointShapes().has_value();
  };
  CHECK(shapesOf("sfIntersects", false, {square}));
  CHECK(shapesOf("sfIntersects", true, {square}));
  CHECK(shapesOf("sfWithin", false, {square}));    // sfWithin(point, square)
  CHECK(!shapesOf("sfWithin", true, {square}));    // sfWithin(square, point)
  CHECK(shapesOf("sfContains", true, {square}));   // sfContains(square, point)
  CHECK(!shapesOf("sfContains", false, {square}));
  CHECK(!shapesOf("sfTouches", false, {square}));  // GEOS's relate decides it, by rules of its own
  CHECK(!shapesOf("sfIntersects", false, {square, literal("LINESTRING(0 0, 1 1)")}));
  CHECK(!shapesOf("sfIntersects", false, {square, literal("POINT(1 1)")}));
  // Empty geometries meet no point: they are no shape, and the others keep their items.
  SpatialMatcher matcher(kGeof + "sfIntersects>", false);
  matcher.add(0, literal("POLYGON EMPTY"));
  matcher.add(1, square);
  const std::optional<RingSet> rings = matcher.pointShapes();
  REQUIRE(rings);
  REQUIRE(rings->shapes() == 1);
  CHECK(matcher.itemOfShape(0) == 1);
  CHECK(placeInShape(*rings, 0, 1, 1) == PointPlace::Interior);
  CHECK(placeInShape(*rings, 0, 2, 1) == PointPlace::Undecided);  // on a vertical edge: orientation zero
  CHECK(placeInShape(*rings, 0, 1, 0) == PointPlace::Boundary);   // on a horizontal edge: certain
  CHECK(placeInShape(*rings, 0, 3, 1) == PointPlace::Exterior);
}
