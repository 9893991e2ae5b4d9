#pragma once
// Points placed in polygonal shapes on a GPU (geo/point_locator.h): the
// shapes' rings and a grid of cells over their envelopes (geo/shape_grid.h)
// are copied to the device once; each located batch of points runs a warp
// per point, whose lanes count the segments of each shape of the point's
// cell whose envelope holds the point (geo/ray_crossing.h) and add their
// counts.
#include <memory>

#include "engine/geo/point_locator.h"

namespace gsparql::engine::gpu {

class Device;

// nullptr where `shapes` has none or the device has no room for them. Memory of its own (not the device's pool, which the
// executor's calls use one at a time): a spatial join's locator lives
// beside them.
std::shared_ptr<geo::PointLocator> makePointLocator(std::shared_ptr<Device> device, const geo::RingSet& shapes);

}  // namespace gsparql::engine::gpu
