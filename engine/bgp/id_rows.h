#pragma once
// Rows of ids, row-major, fixed width: how the CPU executor extends rows step
// by step, and how components are multiplied. Column c holds a vertex id or a
// predicate id, as the BGP's layout says. Executors hand their results over
// as columns (id_columns.h).
#include <cstdint>
#include <span>
#include <vector>

namespace gsparql::engine {

class IdRows {
 public:
  IdRows() = default;
  explicit IdRows(uint32_t width) : width_(width) {}

  uint32_t width() const { return width_; }
  size_t rows() const { return width_ == 0 ? zeroWidthRows_ : data_.size() / width_; }
  std::span<const uint32_t> row(size_t r) const { return {data_.data() + r * width_, width_}; }
  uint32_t at(size_t r, uint32_t c) const { return data_[r * width_ + c]; }

  void appendRow(std::span<const uint32_t> values) {
    if (width_ == 0) ++zeroWidthRows_;
    data_.insert(data_.end(), values.begin(), values.end());
  }
  void append(const IdRows& other);
  void reserveRows(size_t n) { data_.reserve(n * width_); }
  std::vector<uint32_t>& data() { return data_; }
  const std::vector<uint32_t>& data() const { return data_; }
  void setZeroWidthRows(size_t n) { zeroWidthRows_ = n; }

 private:
  uint32_t width_ = 0;
  size_t zeroWidthRows_ = 0;  // rows of a table without columns (ASK, COUNT(*) of constant BGPs)
  std::vector<uint32_t> data_;
};

inline void IdRows::append(const IdRows& other) {
  if (width_ == 0) zeroWidthRows_ += other.zeroWidthRows_;
  data_.insert(data_.end(), other.data_.begin(), other.data_.end());
}

}  // namespace gsparql::engine
