#pragma once
// A batch of solutions as operators exchange them: one column of value ids
// per variable of the producing operator (in the order of its variables()),
// kUndefined where a variable is unbound. Columnar, as the GPU executor keeps
// its tables, so an operator reads only the columns it needs.
#include <cstddef>
#include <span>
#include <vector>

#include "engine/physical/column.h"
#include "engine/value/value_id.h"

namespace gsparql::engine {

struct Table {
  std::vector<Column> columns;
  size_t rows = 0;  // also the count of a table without columns

  Table() = default;
  explicit Table(size_t width) : columns(width) {}

  size_t width() const { return columns.size(); }
  ValueId at(size_t row, size_t column) const { return columns[column][row]; }
  void appendRow(std::span<const ValueId> values) {
    for (size_t c = 0; c < columns.size(); ++c) columns[c].push_back(values[c]);
    ++rows;
  }
  // Appends row `row` of `other`, which has the same width.
  void appendRowOf(const Table& other, size_t row) {
    for (size_t c = 0; c < columns.size(); ++c) columns[c].push_back(other.columns[c][row]);
    ++rows;
  }
  void append(const Table& other) {
    for (size_t c = 0; c < columns.size(); ++c) columns[c].append(other.columns[c]);
    rows += other.rows;
  }
  void reserve(size_t n) {
    for (auto& column : columns) column.reserve(n);
  }
};

// Rows [begin, end) of a table.
inline Table sliceRows(const Table& table, size_t begin, size_t end) {
  Table out(table.width());
  for (size_t c = 0; c < table.width(); ++c) {
    out.columns[c].appendRange(table.columns[c], begin, end);
  }
  out.rows = end - begin;
  return out;
}

// The given rows of a table, in that order.
inline Table gatherRows(const Table& table, std::span<const size_t> rows) {
  Table out(table.width());
  for (size_t c = 0; c < table.width(); ++c) {
    out.columns[c].reserve(rows.size());
    for (size_t r : rows) out.columns[c].push_back(table.columns[c][r]);
  }
  out.rows = rows.size();
  return out;
}

}  // namespace gsparql::engine
