#pragma once
// Points placed in polygonal shapes on the host's cores (point_locator.h),
// where the query's executor has no device of its own: the GPU's grid of
// cells (shape_grid.h) and ray-crossing rule (ray_crossing.h), runs of points
// on the arena's threads. A shape of more than kMostHostSegments segments is
// left Undecided wherever its envelope holds the point: GEOS's prepared
// geometry finds a point's place among many segments through an index of
// them, sooner than counting every one.
#include <cstdint>
#include <memory>

#include "engine/geo/point_locator.h"

namespace gsparql::engine::geo {

inline constexpr uint32_t kMostHostSegments = 256;

std::shared_ptr<PointLocator> makeHostPointLocator(const RingSet& shapes);

}  // namespace gsparql::engine::geo
