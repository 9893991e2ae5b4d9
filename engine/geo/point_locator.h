#pragma once
// Points placed in polygonal shapes in bulk by a device other than the
// query's thread (the GPU executor's: engine/gpu/gpu_point_locator.cuh):
// the arithmetic part of a spatial join between points and polygons
// (spatial_matcher.h), as plain numbers, without GEOS.
#include <cstdint>
#include <span>
#include <vector>

#include "engine/geo/box.h"
#include "engine/geo/ray_crossing.h"

namespace gsparql::engine::geo {

// Polygons and multipolygons as the closed rings of their vertices.
struct RingSet {
  std::vector<double> x, y;             // every ring's vertices, ring after ring
  std::vector<uint32_t> ringStarts{0};  // ring r: vertices [ringStarts[r], ringStarts[r + 1])
  std::vector<uint32_t> shapeRings{0};  // shape s: rings [shapeRings[s], shapeRings[s + 1])
  std::vector<Box> boxes;               // shape s's envelope

  size_t shapes() const { return boxes.size(); }
  void addVertex(double vx, double vy) {
    x.push_back(vx);
    y.push_back(vy);
  }
  void endRing() { ringStarts.push_back(static_cast<uint32_t>(x.size())); }
  void endShape(const Box& box) {
    shapeRings.push_back(static_cast<uint32_t>(ringStarts.size() - 1));
    boxes.push_back(box);
  }
};

// Where a point lies in one shape of `rings`: outside its envelope, the
// exterior; else every segment of its rings counted (ray_crossing.h).
inline PointPlace placeInShape(const RingSet& rings, uint32_t shape, double x, double y) {
  const Box& b = rings.boxes[shape];
  if (x < b.minX || x > b.maxX || y < b.minY || y > b.maxY) return PointPlace::Exterior;
  RayCrossing ray{x, y};
  for (uint32_t r = rings.shapeRings[shape]; r < rings.shapeRings[shape + 1]; ++r) {
    for (uint32_t v = rings.ringStarts[r]; v + 1 < rings.ringStarts[r + 1]; ++v) {
      ray.count(rings.x[v], rings.y[v], rings.x[v + 1], rings.y[v + 1]);
    }
  }
  return ray.place();
}

// A point in a shape (Interior, Boundary or Undecided; never Exterior).
struct PlacedPoint {
  uint32_t point = 0, shape = 0;
  PointPlace place = PointPlace::Undecided;
};

// The shapes of one RingSet, kept where the locating runs.
class PointLocator {
 public:
  virtual ~PointLocator() = default;
  // Point by point ((x[i], y[i]), i ascending), the shapes (ascending) it
  // is not exterior to, each with placeInShape's answer.
  virtual std::vector<PlacedPoint> locate(std::span<const double> x, std::span<const double> y) = 0;
};

}  // namespace gsparql::engine::geo
