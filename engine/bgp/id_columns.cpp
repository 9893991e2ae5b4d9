#include "engine/bgp/id_columns.h"

#include <numeric>

namespace gsparql::engine {

IdColumns IdColumns::slice(size_t begin, size_t end) const {
  IdColumns out(width());
  for (uint32_t c = 0; c < width(); ++c) {
    const auto from = columns_[c].begin();
    out.columns_[c].assign(from + static_cast<std::ptrdiff_t>(begin), from + static_cast<std::ptrdiff_t>(end));
  }
  out.rows_ = end - begin;
  return out;
}

void IdColumns::append(const IdColumns& other) {
  for (uint32_t c = 0; c < width(); ++c) {
    columns_[c].insert(columns_[c].end(), other.columns_[c].begin(), other.columns_[c].end());
  }
  rows_ += other.rows_;
}

IdColumns toColumns(IdRows rows, const std::optional<std::vector<uint32_t>>& selected) {
  std::vector<uint32_t> all;
  if (!selected) {
    all.resize(rows.width());
    std::iota(all.begin(), all.end(), 0u);
  }
  const std::vector<uint32_t>& wanted = selected ? *selected : all;
  IdColumns out(static_cast<uint32_t>(wanted.size()));
  out.setRows(rows.rows());
  if (wanted.size() == 1 && rows.width() == 1) {
    out.column(0) = std::move(rows.data());
    return out;
  }
  for (uint32_t c = 0; c < wanted.size(); ++c) out.column(c).reserve(rows.rows());  // each cell written once
  for (size_t r = 0; r < rows.rows(); ++r) {
    const auto row = rows.row(r);
    for (uint32_t c = 0; c < wanted.size(); ++c) out.column(c).push_back(row[wanted[c]]);
  }
  return out;
}

IdRows toRows(const IdColumns& columns) {
  IdRows out(columns.width());
  if (columns.width() == 0) {
    out.setZeroWidthRows(columns.rows());
    return out;
  }
  out.reserveRows(columns.rows());
  std::vector<uint32_t> row(columns.width());
  for (size_t r = 0; r < columns.rows(); ++r) {
    for (uint32_t c = 0; c < columns.width(); ++c) row[c] = columns.at(r, c);
    out.appendRow(row);
  }
  return out;
}

}  // namespace gsparql::engine
