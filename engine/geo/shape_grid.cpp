#include "engine/geo/shape_grid.h"

#include <algorithm>

namespace gsparql::engine::geo {
namespace {

Box extentOf(std::span<const Box> boxes) {
  Box extent = boxes.front();
  for (const Box& b : boxes) {
    extent.minX = std::min(extent.minX, b.minX);
    extent.minY = std::min(extent.minY, b.minY);
    extent.maxX = std::max(extent.maxX, b.maxX);
    extent.maxY = std::max(extent.maxY, b.maxY);
  }
  return extent;
}

GridShape gridOf(const Box& extent, uint32_t columns, uint32_t rows) {
  GridShape grid;
  grid.extent = extent;
  const double width = extent.maxX - extent.minX, height = extent.maxY - extent.minY;
  grid.columns = width > 0 ? columns : 1;
  grid.rows = height > 0 ? rows : 1;
  grid.cellWidth = width > 0 ? width / grid.columns : 0;
  grid.cellHeight = height > 0 ? height / grid.rows : 0;
  return grid;
}

uint64_t entriesOf(const GridShape& grid, std::span<const Box> boxes) {
  uint64_t entries = 0;
  for (const Box& b : boxes) {
    entries += uint64_t{grid.columnOf(b.maxX) - grid.columnOf(b.minX) + 1} * (grid.rowOf(b.maxY) - grid.rowOf(b.minY) + 1);
  }
  return entries;
}

}  // namespace

ShapeGrid makeShapeGrid(std::span<const Box> boxes) {
  ShapeGrid out;
  if (boxes.empty()) return out;
  const Box extent = extentOf(boxes);
  // Square cells where the extent allows, about as many as shapes.
  const double width = extent.maxX - extent.minX, height = extent.maxY - extent.minY;
  const double aspect = width > 0 && height > 0 ? width / height : 1;
  auto columns = static_cast<uint32_t>(std::clamp(std::sqrt(boxes.size() * aspect), 1.0, 4096.0));
  auto rows = static_cast<uint32_t>(std::clamp(boxes.size() / double(columns), 1.0, 4096.0));
  const uint64_t most = uint64_t{kMostEntriesPerShape} * boxes.size();
  GridShape grid = gridOf(extent, columns, rows);
  while ((grid.columns > 1 || grid.rows > 1) && entriesOf(grid, boxes) > most) {
    columns = std::max(1u, columns / 2);
    rows = std::max(1u, rows / 2);
    grid = gridOf(extent, columns, rows);
  }
  out.shape = grid;
  // Counted, then placed: shapes in ascending order fill each cell's list in order.
  const size_t cells = size_t{grid.columns} * grid.rows;
  out.cellStarts.assign(cells + 1, 0);
  const auto forEachCell = [&](const Box& b, auto&& visit) {
    for (uint32_t r = grid.rowOf(b.minY); r <= grid.rowOf(b.maxY); ++r) {
      for (uint32_t c = grid.columnOf(b.minX); c <= grid.columnOf(b.maxX); ++c) visit(r * grid.columns + c);
    }
  };
  for (const Box& b : boxes) forEachCell(b, [&](uint32_t cell) { ++out.cellStarts[cell + 1]; });
  for (size_t c = 0; c < cells; ++c) out.cellStarts[c + 1] += out.cellStarts[c];
  out.cellShapes.resize(out.cellStarts.back());
  std::vector<uint32_t> next(out.cellStarts.begin(), out.cellStarts.end() - 1);
  for (uint32_t s = 0; s < boxes.size(); ++s) {
    forEachCell(boxes[s], [&](uint32_t cell) { out.cellShapes[next[cell]++] = s; });
  }
  return out;
}

}  // namespace gsparql::engine::geo
