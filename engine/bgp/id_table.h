#pragma once
// Rows of ids, row-major, fixed width: what executors produce and solution
// modifiers consume. Column c holds a vertex id or a predicate id, as the
// BGP's layout says; results stay ids until the decoder.
#include <cstdint>
#include <span>
#include <vector>

namespace gsparql::engine {

class IdTable {
 public:
  IdTable() = default;
  explicit IdTable(uint32_t width) : width_(width) {}

  uint32_t width() const { return width_; }
  size_t rows() const { return width_ == 0 ? zeroWidthRows_ : data_.size() / width_; }
  std::span<const uint32_t> row(size_t r) const { return {data_.data() + r * width_, width_}; }
  uint32_t at(size_t r, uint32_t c) const { return data_[r * width_ + c]; }

  void appendRow(std::span<const uint32_t> values) {
    if (width_ == 0) ++zeroWidthRows_;
    data_.insert(data_.end(), values.begin(), values.end());
  }
  void append(const IdTable& other);
  void reserveRows(size_t n) { data_.reserve(n * width_); }
  std::vector<uint32_t>& data() { return data_; }
  const std::vector<uint32_t>& data() const { return data_; }
  void setZeroWidthRows(size_t n) { zeroWidthRows_ = n; }

 private:
  uint32_t width_ = 0;
  size_t zeroWidthRows_ = 0;  // rows of a table without columns (ASK, COUNT(*) of constant BGPs)
  std::vector<uint32_t> data_;
};

// The given columns of `table`, in that order.
inline IdTable selectColumns(const IdTable& table, const std::vector<uint32_t>& columns) {
  IdTable out(static_cast<uint32_t>(columns.size()));
  if (columns.empty()) {
    out.setZeroWidthRows(table.rows());
    return out;
  }
  std::vector<uint32_t>& data = out.data();
  data.resize(table.rows() * columns.size());
  for (size_t r = 0; r < table.rows(); ++r) {
    for (size_t c = 0; c < columns.size(); ++c) data[r * columns.size() + c] = table.at(r, columns[c]);
  }
  return out;
}

inline void IdTable::append(const IdTable& other) {
  if (width_ == 0) zeroWidthRows_ += other.zeroWidthRows_;
  data_.insert(data_.end(), other.data_.begin(), other.data_.end());
}

}  // namespace gsparql::engine
