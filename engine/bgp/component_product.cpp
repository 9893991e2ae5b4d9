#include "engine/bgp/component_product.h"

#include <algorithm>
#include <numeric>

#include "engine/bgp/id_columns.h"

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

// The product of `left` and `right` (whose `columns` it fills), row by row
// into emit(row) until it returns false; with injective matching, rows that
// map a vertex of either side to the term of one of the other are left out.
template <typename Emit>
void forEachProductRow(const IdRows& left, const IdRows& right, const std::vector<uint32_t>& columns,
                       const std::vector<uint32_t>& leftVertices, const std::vector<uint32_t>& rightVertices,
                       const BgpCall& options, Emit&& emit) {
  StopCheck stop(options);
  std::vector<uint32_t> row;
  for (size_t l = 0; l < left.rows(); ++l) {
    for (size_t r = 0; r < right.rows(); ++r) {
      stop();
      row.assign(left.row(l).begin(), left.row(l).end());
      for (uint32_t column : columns) row[column] = right.at(r, column);
      if (options.injective && !injectiveAcross(row, leftVertices, rightVertices)) continue;
      if (!emit(row)) return;
    }
  }
}

// The rows of left x right, at most `limit`.
uint64_t productRows(uint64_t left, uint64_t right, uint64_t limit) {
  uint64_t rows = 0;
  return __builtin_mul_overflow(left, right, &rows) ? limit : std::min(rows, limit);
}

}  // namespace

IdColumns componentProduct(std::vector<IdRows> tables, const BoundBgp& bgp, const BgpCall& options) {
  if (tables.empty()) {
    IdRows identity(bgp.columnCount());
    identity.appendRow(std::vector<uint32_t>(bgp.columnCount(), 0));
    return toColumns(std::move(identity), options.outputColumns);
  }
  const uint64_t limit = options.rowLimit.value_or(UINT64_MAX);
  const uint64_t rowBytes = uint64_t{bgp.columnCount()} * sizeof(uint32_t);
  std::vector<uint32_t> wanted(bgp.columnCount());
  std::iota(wanted.begin(), wanted.end(), 0u);
  if (options.outputColumns) wanted = *options.outputColumns;
  IdRows result = std::move(tables.front());
  std::vector<uint32_t> leftVertices(bgp.components.front().begin(), bgp.components.front().end());
  for (size_t c = 1; c < tables.size(); ++c) {
    // The last product goes straight into the columns the caller reads.
    const bool last = c + 1 == tables.size();
    IdRows product(bgp.columnCount());
    IdColumns out(static_cast<uint32_t>(wanted.size()));
    // A product has exactly this many rows (injective matching drops some):
    // one that would outgrow the budget fails now, not once it has filled
    // it, and one that fits gets its room at once: its pages are touched by
    // the loop below, which checks for a stop, instead of being copied by a
    // growing vector (a second's copy at a few GiB).
    const uint64_t ahead = productRows(result.rows(), tables[c].rows(), limit);
    const uint64_t bytesAhead = (result.rows() + ahead) * rowBytes;
    if (!options.injective) options.checkMemory(bytesAhead, "the product of the BGP's components");
    if (bytesAhead <= options.memoryBudgetBytes) {
      if (last) {
        for (uint32_t k = 0; k < out.width(); ++k) out.column(k).reserve(ahead);
      } else {
        product.reserveRows(ahead);
      }
    }
    uint64_t rows = 0;
    forEachProductRow(result, tables[c], columnsOf(bgp, bgp.components[c]), leftVertices, bgp.components[c], options,
                      [&](std::span<const uint32_t> row) {
                        if (last) {
                          for (uint32_t k = 0; k < wanted.size(); ++k) out.column(k).push_back(row[wanted[k]]);
                        } else {
                          product.appendRow(row);
                        }
                        if (++rows % 4096 == 0) {
                          options.checkMemory((result.rows() + rows) * rowBytes, "the product of the BGP's components");
                        }
                        return rows < limit;
                      });
    if (last) {
      out.setRows(rows);
      return out;
    }
    result = std::move(product);
    leftVertices.insert(leftVertices.end(), bgp.components[c].begin(), bgp.components[c].end());
  }
  return toColumns(std::move(result), options.outputColumns);  // one component: no product
}

}  // namespace gsparql::engine
