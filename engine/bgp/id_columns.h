#pragma once
// A BGP's rows as executors hand them over: one column of 32-bit ids (vertex
// or predicate ids, as the BGP's layout says) per output column, each `rows`
// long, which the operators above take as their columns without copying.
// (Like QLever's IdTable, column-major; the executors' row-major tables are
// IdRows.)
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/bgp/id_rows.h"

namespace gsparql::engine {

class IdColumns {
 public:
  IdColumns() = default;
  explicit IdColumns(uint32_t width) : columns_(width) {}

  uint32_t width() const { return static_cast<uint32_t>(columns_.size()); }
  size_t rows() const { return rows_; }
  uint32_t at(size_t r, uint32_t c) const { return columns_[c][r]; }
  const std::vector<uint32_t>& column(uint32_t c) const { return columns_[c]; }
  std::vector<uint32_t>& column(uint32_t c) { return columns_[c]; }
  // After filling the columns (all `rows` long), or for a table without any.
  void setRows(size_t rows) { rows_ = rows; }
  // Rows [begin, end).
  IdColumns slice(size_t begin, size_t end) const;
  void append(const IdColumns& other);

 private:
  std::vector<std::vector<uint32_t>> columns_;
  size_t rows_ = 0;
};

// The `selected` columns of `rows` (nullopt: all), in that order, in one pass.
IdColumns toColumns(IdRows rows, const std::optional<std::vector<uint32_t>>& selected = std::nullopt);
// The rows of `columns` (a product of components multiplies rows).
IdRows toRows(const IdColumns& columns);

}  // namespace gsparql::engine
