#include "engine/physical/row_set.h"

#include <algorithm>
#include <bit>

#include "engine/physical/row_hash.h"

namespace gsparql::engine {

bool RowSet::insert(std::span<const ValueId> row) {
  if (width_ == 1 && spaceOf(row[0]) == ValueSpace::Vertex) {
    constexpr size_t kBitsFrom = size_t{1} << 18;
    if (vertexBits_.empty() && hashes_.size() >= kBitsFrom) startVertexBits();
    if (!vertexBits_.empty()) return insertVertex(indexOf(row[0]));
  }
  if (2 * (hashes_.size() + 1) > slots_.size()) grow();  // at most half full
  const uint64_t hash = hashIds(row);
  const size_t mask = slots_.size() - 1;
  for (size_t slot = slotOf(hash);; slot = (slot + 1) & mask) {
    const uint32_t kept = slots_[slot];
    if (kept == 0) {
      slots_[slot] = static_cast<uint32_t>(hashes_.size() + 1);
      hashes_.push_back(hash);
      rows_.insert(rows_.end(), row.begin(), row.end());
      return true;
    }
    if (hashes_[kept - 1] == hash && equalAt(kept - 1, row)) return false;
  }
}

bool RowSet::insertVertex(uint32_t vertex) {
  const size_t word = vertex / 64;
  if (word >= vertexBits_.size()) vertexBits_.resize(std::max(word + 1, 2 * vertexBits_.size()), 0);
  const uint64_t bit = uint64_t{1} << (vertex % 64);
  const bool added = (vertexBits_[word] & bit) == 0;
  vertexBits_[word] |= bit;
  return added;
}

void RowSet::startVertexBits() {
  vertexBits_.assign(1, 0);
  for (ValueId id : rows_) {
    if (spaceOf(id) == ValueSpace::Vertex) insertVertex(indexOf(id));
  }
}

void RowSet::clear() {
  vertexBits_.clear();
  rows_.clear();
  hashes_.clear();
  slots_.clear();
  shift_ = 64;
}

bool RowSet::equalAt(uint32_t kept, std::span<const ValueId> row) const {
  return std::equal(row.begin(), row.end(), rows_.begin() + static_cast<ptrdiff_t>(kept * width_));
}

void RowSet::grow() {
  const size_t size = std::max<size_t>(16, 2 * slots_.size());
  shift_ = 64 - static_cast<unsigned>(std::countr_zero(size));
  slots_.assign(size, 0);
  const size_t mask = size - 1;
  for (uint32_t kept = 0; kept < hashes_.size(); ++kept) {
    size_t slot = slotOf(hashes_[kept]);
    while (slots_[slot] != 0) slot = (slot + 1) & mask;
    slots_[slot] = kept + 1;
  }
}

}  // namespace gsparql::engine
