// The grid of cells over shapes' envelopes (engine/geo/shape_grid.h) that
// the GPU's point locator reads: every point's cell lists, in ascending
// order and once each, every shape whose envelope holds the point, for
// scattered, nested, overlapping, flat and degenerate envelopes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "engine/geo/shape_grid.h"

using namespace gsparql::engine::geo;

namespace {

bool holds(const Box& b, double x, double y) { return x >= b.minX && x <= b.maxX && y >= b.minY && y <= b.maxY; }

// Random points, the envelopes' corners and points just outside the extent:
// the shapes listed in a point's cell include every envelope holding it.
void checkGrid(const std::vector<Box>& boxes, std::mt19937& random) {
  const ShapeGrid grid = makeShapeGrid(boxes);
  CHECK(grid.cellShapes.size() <= uint64_t{kMostEntriesPerShape} * boxes.size());
  for (uint32_t cell = 0; cell + 1 < grid.cellStarts.size(); ++cell) {
    const auto shapes = grid.shapesOf(cell);
    CHECK(std::adjacent_find(shapes.begin(), shapes.end(), std::greater_equal<>()) == shapes.end());
  }
  const Box& e = grid.shape.extent;
  std::uniform_real_distribution<double> x(e.minX - 1, e.maxX + 1), y(e.minY - 1, e.maxY + 1);
  std::vector<std::pair<double, double>> points;
  for (int i = 0; i < 2000; ++i) points.emplace_back(x(random), y(random));
  for (const Box& b : boxes) {
    points.emplace_back(b.minX, b.minY);
    points.emplace_back(b.maxX, b.maxY);
    points.emplace_back(b.minX, b.maxY);
  }
  for (const auto& [px, py] : points) {
    CAPTURE(px);
    CAPTURE(py);
    const auto listed = grid.shapesOf(grid.shape.cellOf(px, py));
    for (uint32_t s = 0; s < boxes.size(); ++s) {
      if (holds(boxes[s], px, py)) CHECK(std::binary_search(listed.begin(), listed.end(), s));
    }
  }
}

Box around(double x, double y, double w, double h) { return {x, y, x + w, y + h}; }

}  // namespace

TEST_CASE("a point's cell lists every shape whose envelope holds it, in ascending order") {
  std::mt19937 random(8);
  std::uniform_real_distribution<double> at(-180, 170), size(0, 3), big(0, 120);
  std::vector<Box> scattered, mixed, overlapping;
  for (int i = 0; i < 3000; ++i) scattered.push_back(around(at(random), at(random) / 2, size(random), size(random)));
  for (int i = 0; i < 800; ++i) {
    const bool large = i % 10 == 0;
    mixed.push_back(around(at(random), at(random) / 2, large ? big(random) : size(random), size(random)));
  }
  for (int i = 0; i < 300; ++i) overlapping.push_back(around(-i * 0.01, -i * 0.01, 100 + i, 50));
  for (const auto* boxes : {&scattered, &mixed, &overlapping}) checkGrid(*boxes, random);
  // Thousands of cells where the envelopes are scattered; the overlapping ones fill
  // every cell, so the grid grows coarse rather than list each shape everywhere.
  const ShapeGrid fine = makeShapeGrid(scattered);
  CHECK(size_t{fine.shape.columns} * fine.shape.rows > 1000);
  const ShapeGrid coarse = makeShapeGrid(overlapping);
  CHECK(size_t{coarse.shape.columns} * coarse.shape.rows < overlapping.size() / 2);
}

TEST_CASE("flat and single-point extents, points outside and coordinates that are no numbers find no cell or one") {
  std::mt19937 random(9);
  checkGrid({around(1, 2, 0, 0)}, random);                                        // one point
  checkGrid({around(0, 5, 10, 0), around(3, 5, 1, 0), around(9, 5, 4, 0)}, random);  // a horizontal line
  checkGrid({around(5, 0, 0, 10), around(5, 3, 0, 1)}, random);                      // a vertical one
  const ShapeGrid grid = makeShapeGrid(std::vector<Box>{around(0, 0, 10, 10), around(20, 20, 5, 5)});
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(grid.shape.cellOf(nan, 1) == GridShape::kNoCell);
  CHECK(grid.shape.cellOf(1, nan) == GridShape::kNoCell);
  CHECK(grid.shape.cellOf(-0.5, 1) == GridShape::kNoCell);
  CHECK(grid.shape.cellOf(26, 1) == GridShape::kNoCell);
  CHECK(grid.shapesOf(GridShape::kNoCell).empty());
  CHECK(grid.shapesOf(grid.shape.cellOf(25, 25)).size() >= 1);
  CHECK(makeShapeGrid({}).cellShapes.empty());
}
