#pragma once
// One column of an operator's table. Most cells are data vertices (BGP leaves
// produce nothing else), so a column keeps them as the executors do, as
// 32-bit vertex ids, until a value of another space arrives; then it widens,
// once, to 64-bit value ids. Half the memory, and a BGP leaf's one-column
// result becomes a column without a pass over it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/value/value_id.h"

namespace gsparql::engine {

class Column {
 public:
  Column() = default;
  explicit Column(std::vector<ValueId> values) : narrow_(false), wide_(std::move(values)) {}
  static Column ofVertices(std::vector<uint32_t> vertices) {
    Column column;
    column.vertices_ = std::move(vertices);
    return column;
  }

  size_t size() const { return narrow_ ? vertices_.size() : wide_.size(); }
  ValueId operator[](size_t row) const {
    return narrow_ ? makeValueId(ValueSpace::Vertex, vertices_[row]) : wide_[row];
  }
  // The cells as vertex ids, when every cell is one (else empty).
  std::span<const uint32_t> vertices() const { return vertices_; }
  bool holdsOnlyVertices() const { return narrow_; }
  // The cells as value ids, when the column has widened (else empty).
  std::span<const ValueId> wideValues() const { return wide_; }

  void push_back(ValueId id) {
    if (narrow_) {
      if (spaceOf(id) == ValueSpace::Vertex) {
        vertices_.push_back(indexOf(id));
        return;
      }
      widen();
    }
    wide_.push_back(id);
  }
  void assign(size_t rows, ValueId id);
  void reserve(size_t rows) { narrow_ ? vertices_.reserve(rows) : wide_.reserve(rows); }
  void append(const Column& other) { appendRange(other, 0, other.size()); }
  // Appends rows [begin, end) of `other`.
  void appendRange(const Column& other, size_t begin, size_t end);

 private:
  void widen();

  bool narrow_ = true;              // every cell so far is a vertex, kept in vertices_
  std::vector<uint32_t> vertices_;  // while narrow
  std::vector<ValueId> wide_;       // once widened
};

inline void Column::assign(size_t rows, ValueId id) {
  vertices_.clear();
  wide_.clear();
  narrow_ = spaceOf(id) == ValueSpace::Vertex;
  if (narrow_) {
    vertices_.assign(rows, indexOf(id));
  } else {
    wide_.assign(rows, id);
  }
}

inline void Column::appendRange(const Column& other, size_t begin, size_t end) {
  if (narrow_ && other.narrow_) {
    vertices_.insert(vertices_.end(), other.vertices_.begin() + begin, other.vertices_.begin() + end);
    return;
  }
  if (narrow_) widen();
  if (!other.narrow_) {
    wide_.insert(wide_.end(), other.wide_.begin() + begin, other.wide_.begin() + end);
    return;
  }
  for (size_t r = begin; r < end; ++r) wide_.push_back(other[r]);
}

inline void Column::widen() {
  wide_.reserve(std::max(vertices_.capacity(), vertices_.size() + 1));
  for (uint32_t v : vertices_) wide_.push_back(makeValueId(ValueSpace::Vertex, v));
  vertices_ = {};
  narrow_ = false;
}

}  // namespace gsparql::engine
