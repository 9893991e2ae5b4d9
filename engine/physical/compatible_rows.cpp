#include "engine/physical/compatible_rows.h"

#include <algorithm>
#include <bit>
#include <optional>
#include <string>

namespace gsparql::engine {

CompatibleRows::CompatibleRows(const Table& table, std::vector<size_t> keyColumns)
    : table_(table), keyColumns_(std::move(keyColumns)) {
  std::vector<ValueId> key(keyColumns_.size());
  std::vector<uint64_t> hashes;
  for (uint32_t row = 0; row < table.rows; ++row) {
    for (size_t k = 0; k < keyColumns_.size(); ++k) key[k] = table.at(row, keyColumns_[k]);
    if (allBound(key)) {
      hashes.push_back(hashIds(key));
      boundRows_.push_back(row);
    } else {
      looseRows_.push_back(row);
    }
  }
  fillBuckets(hashes);
}

// A counting sort of the bound rows by bucket, about two buckets per row.
void CompatibleRows::fillBuckets(const std::vector<uint64_t>& hashes) {
  const size_t buckets = std::bit_ceil(std::max<size_t>(2 * hashes.size(), 2));
  bucketShift_ = 64 - static_cast<unsigned>(std::countr_zero(buckets));
  bucketStart_.assign(buckets + 1, 0);
  for (uint64_t hash : hashes) ++bucketStart_[bucketOf(hash) + 1];
  for (size_t b = 0; b < buckets; ++b) bucketStart_[b + 1] += bucketStart_[b];
  std::vector<uint32_t> next(bucketStart_.begin(), bucketStart_.end() - 1);
  bucketRows_.resize(hashes.size());
  for (size_t i = 0; i < hashes.size(); ++i) bucketRows_[next[bucketOf(hashes[i])]++] = boundRows_[i];
}

bool CompatibleRows::allBound(std::span<const ValueId> key) {
  return std::all_of(key.begin(), key.end(), isBound);
}

bool CompatibleRows::equalAt(uint32_t row, std::span<const ValueId> key) const {
  for (size_t k = 0; k < key.size(); ++k) {
    if (table_.at(row, keyColumns_[k]) != key[k]) return false;
  }
  return true;
}

bool CompatibleRows::compatibleAt(uint32_t row, std::span<const ValueId> key) const {
  for (size_t k = 0; k < key.size(); ++k) {
    const ValueId mine = table_.at(row, keyColumns_[k]);
    if (isBound(mine) && isBound(key[k]) && mine != key[k]) return false;
  }
  return true;
}

SharedColumns sharedColumns(const std::vector<std::string>& left, const std::vector<std::string>& right) {
  SharedColumns shared;
  for (size_t l = 0; l < left.size(); ++l) {
    auto it = std::find(right.begin(), right.end(), left[l]);
    if (it == right.end()) continue;
    shared.left.push_back(l);
    shared.right.push_back(static_cast<size_t>(it - right.begin()));
  }
  return shared;
}

std::vector<std::string> mergedVariables(const std::vector<std::string>& left, const std::vector<std::string>& right) {
  std::vector<std::string> merged = left;
  for (const auto& v : right) {
    if (std::find(left.begin(), left.end(), v) == left.end()) merged.push_back(v);
  }
  return merged;
}

void appendMergedRow(const Table& left, size_t leftRow, const Table& right, size_t rightRow,
                     const std::vector<std::optional<size_t>>& rightColumnOfOutput, Table& out) {
  for (size_t c = 0; c < out.width(); ++c) {
    ValueId v = c < left.width() ? left.at(leftRow, c) : kUndefined;
    if (!isBound(v) && rightColumnOfOutput[c]) v = right.at(rightRow, *rightColumnOfOutput[c]);
    out.columns[c].push_back(v);
  }
  ++out.rows;
}

}  // namespace gsparql::engine
