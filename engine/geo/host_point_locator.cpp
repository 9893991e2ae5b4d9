#include "engine/geo/host_point_locator.h"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <vector>

#include "engine/geo/shape_grid.h"

namespace gsparql::engine::geo {
namespace {

constexpr size_t kPointsPerTask = 4096;

class HostPointLocator final : public PointLocator {
 public:
  explicit HostPointLocator(const RingSet& shapes) : shapes_(shapes), grid_(makeShapeGrid(shapes.boxes)) {
    for (size_t s = 0; s < shapes.shapes(); ++s) {
      const uint32_t rings = shapes.shapeRings[s + 1] - shapes.shapeRings[s];
      const uint32_t vertices = shapes.ringStarts[shapes.shapeRings[s + 1]] - shapes.ringStarts[shapes.shapeRings[s]];
      countable_.push_back(vertices - rings <= kMostHostSegments);
    }
  }

  std::vector<PlacedPoint> locate(std::span<const double> x, std::span<const double> y) override {
    const size_t tasks = (x.size() + kPointsPerTask - 1) / kPointsPerTask;
    std::vector<std::vector<PlacedPoint>> placed(tasks);
    // Isolated: a caller holding a lock gets no unrelated task.
    tbb::this_task_arena::isolate([&] {
      tbb::parallel_for(size_t{0}, tasks, [&](size_t t) {
        for (size_t p = t * kPointsPerTask; p < std::min(x.size(), (t + 1) * kPointsPerTask); ++p) {
          placePoint(static_cast<uint32_t>(p), x[p], y[p], placed[t]);
        }
      });
    });
    std::vector<PlacedPoint> out;
    for (const auto& run : placed) out.insert(out.end(), run.begin(), run.end());
    return out;
  }

 private:
  void placePoint(uint32_t point, double x, double y, std::vector<PlacedPoint>& out) const {
    for (uint32_t s : grid_.shapesOf(grid_.shape.cellOf(x, y))) {
      const Box& b = shapes_.boxes[s];
      if (x < b.minX || x > b.maxX || y < b.minY || y > b.maxY) continue;
      const PointPlace place = countable_[s] ? placeInShape(shapes_, s, x, y) : PointPlace::Undecided;
      if (place != PointPlace::Exterior) out.push_back({point, s, place});
    }
  }

  RingSet shapes_;
  ShapeGrid grid_;
  std::vector<bool> countable_;  // at most kMostHostSegments segments
};

}  // namespace

std::shared_ptr<PointLocator> makeHostPointLocator(const RingSet& shapes) {
  return std::make_shared<HostPointLocator>(shapes);
}

}  // namespace gsparql::engine::geo
