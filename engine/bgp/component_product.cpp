#include "engine/bgp/component_product.h"

#include <algorithm>

#include "gsparql/error.h"

namespace gsparql::engine {
namespace {

std::vector<uint32_t> columnsOf(const BoundBgp& bgp, const std::vector<uint32_t>& component) {
  std::vector<uint32_t> columns(component.begin(), component.end());
  for (const auto& e : bgp.edges) {
    bool inside = std::find(component.begin(), component.end(), e.from) != component.end();
    if (inside && e.predicateIsVariable) columns.push_back(bgp.predicateColumn(e));
  }
  std::sort(columns.begin(), columns.end());
  columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
  return columns;
}

bool injectiveAcross(std::span<const uint32_t> row, const std::vector<uint32_t>& left,
                     const std::vector<uint32_t>& right) {
  for (uint32_t a : left) {
    for (uint32_t b : right) {
      if (row[a] == row[b]) return false;
    }
  }
  return true;
}

}  // namespace

IdRows componentProduct(std::vector<IdRows> tables, const BoundBgp& bgp, const BgpCall& options) {
  if (tables.empty()) {
    IdRows identity(bgp.columnCount());
    identity.appendRow(std::vector<uint32_t>(bgp.columnCount(), 0));
    return identity;
  }
  const uint64_t limit = options.rowLimit.value_or(UINT64_MAX);
  const uint64_t rowBytes = uint64_t{bgp.columnCount()} * sizeof(uint32_t);
  IdRows result = std::move(tables.front());
  std::vector<uint32_t> leftVertices(bgp.components.front().begin(), bgp.components.front().end());
  for (size_t c = 1; c < tables.size(); ++c) {
    const auto columns = columnsOf(bgp, bgp.components[c]);
    const std::vector<uint32_t>& rightVertices = bgp.components[c];
    IdRows product(bgp.columnCount());
    std::vector<uint32_t> row;
    for (size_t l = 0; l < result.rows() && product.rows() < limit; ++l) {
      for (size_t r = 0; r < tables[c].rows() && product.rows() < limit; ++r) {
        if (r % 4096 == 0) {
          options.throwIfStopped();
          options.checkMemory((result.rows() + product.rows()) * rowBytes, "the product of the BGP's components");
        }
        row.assign(result.row(l).begin(), result.row(l).end());
        for (uint32_t column : columns) row[column] = tables[c].at(r, column);
        if (!options.injective || injectiveAcross(row, leftVertices, rightVertices)) product.appendRow(row);
      }
    }
    result = std::move(product);
    leftVertices.insert(leftVertices.end(), rightVertices.begin(), rightVertices.end());
  }
  return result;
}

}  // namespace gsparql::engine
