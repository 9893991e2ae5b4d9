#pragma once
// A uniform grid of cells over shapes' envelopes, each cell listing the
// shapes whose envelope meets it, in ascending order: a point reads the
// envelopes near it, not every shape's (the GPU's point locator,
// engine/gpu/gpu_point_locator.cu, for joins of many polygons). A shape is
// listed in every cell from the cell of its envelope's minimum to that of
// its maximum, by the same cellOf a point uses; cellOf is monotone in each
// coordinate, so a point inside an envelope finds the shape in its cell.
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/geo/box.h"
#include "engine/geo/ray_crossing.h"  // GSPARQL_GEO_HOST_DEVICE

namespace gsparql::engine::geo {

// Where the cells lie: what a point needs to find its cell.
struct GridShape {
  Box extent;  // of every envelope
  uint32_t columns = 1, rows = 1;
  double cellWidth = 0, cellHeight = 0;  // zero where the extent is flat: one column or row

  static constexpr uint32_t kNoCell = 0xFFFFFFFFu;

  // The cell of (x, y); kNoCell outside the extent (no envelope holds the
  // point) or for a coordinate that is not a number.
  GSPARQL_GEO_HOST_DEVICE uint32_t cellOf(double x, double y) const {
    if (!(x >= extent.minX && x <= extent.maxX && y >= extent.minY && y <= extent.maxY)) return kNoCell;
    return rowOf(y) * columns + columnOf(x);
  }
  GSPARQL_GEO_HOST_DEVICE uint32_t columnOf(double x) const { return step(x - extent.minX, cellWidth, columns); }
  GSPARQL_GEO_HOST_DEVICE uint32_t rowOf(double y) const { return step(y - extent.minY, cellHeight, rows); }

 private:
  GSPARQL_GEO_HOST_DEVICE static uint32_t step(double offset, double size, uint32_t count) {
    if (size <= 0) return 0;
    const double at = std::floor(offset / size);
    return at <= 0 ? 0 : at >= count - 1 ? count - 1 : static_cast<uint32_t>(at);
  }
};

struct ShapeGrid {
  GridShape shape;
  std::vector<uint32_t> cellStarts{0, 0};  // cell c: cellShapes[cellStarts[c], cellStarts[c + 1])
  std::vector<uint32_t> cellShapes;        // ascending within a cell

  std::span<const uint32_t> shapesOf(uint32_t cell) const {
    if (cell == GridShape::kNoCell) return {};
    return std::span(cellShapes).subspan(cellStarts[cell], cellStarts[cell + 1] - cellStarts[cell]);
  }
};

// About one cell per shape, coarser where the envelopes overlap so many
// cells that the lists would outgrow kMostEntriesPerShape entries a shape
// (at worst one cell: every shape in it, the list of them all).
ShapeGrid makeShapeGrid(std::span<const Box> boxes);

inline constexpr uint32_t kMostEntriesPerShape = 64;

}  // namespace gsparql::engine::geo
