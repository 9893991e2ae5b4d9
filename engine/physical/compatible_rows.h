#pragma once
// An index over the rows of one side of a join, OPTIONAL or MINUS that finds
// the rows compatible with a given row on the shared variables (section
// 18.3: equal wherever both are bound). Rows whose shared variables are all
// bound are hashed into buckets laid out as one array (no allocation per
// key); the few with an unbound shared variable (from OPTIONAL, UNION or
// VALUES) are kept aside and checked one by one.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/physical/row_hash.h"
#include "engine/physical/table.h"

namespace gsparql::engine {

class CompatibleRows {
 public:
  // `keyColumns`: the columns of `table` that hold the shared variables.
  CompatibleRows(const Table& table, std::vector<size_t> keyColumns);

  // Calls visit(row) for every row compatible with `key` (the other side's
  // values of the shared variables, in the order of keyColumns).
  template <typename Visit>
  void forEachCompatible(std::span<const ValueId> key, Visit&& visit) const {
    anyCompatible(key, [&](uint32_t row) {
      visit(row);
      return false;
    });
  }

  // Whether some row compatible with `key` passes `test`; stops at the first
  // (EXISTS and MINUS need one, not all: a key may have thousands of rows).
  template <typename Test>
  bool anyCompatible(std::span<const ValueId> key, Test&& test) const {
    if (allBound(key)) {
      const size_t bucket = bucketOf(hashIds(key));
      for (uint32_t i = bucketStart_[bucket]; i < bucketStart_[bucket + 1]; ++i) {
        if (equalAt(bucketRows_[i], key) && test(bucketRows_[i])) return true;
      }
    } else {
      for (uint32_t row : boundRows_) {
        if (compatibleAt(row, key) && test(row)) return true;
      }
    }
    for (uint32_t row : looseRows_) {
      if (compatibleAt(row, key) && test(row)) return true;
    }
    return false;
  }

 private:
  static bool allBound(std::span<const ValueId> key);
  void fillBuckets(const std::vector<uint64_t>& hashes);
  size_t bucketOf(uint64_t hash) const { return static_cast<size_t>(hash >> bucketShift_); }
  bool equalAt(uint32_t row, std::span<const ValueId> key) const;
  bool compatibleAt(uint32_t row, std::span<const ValueId> key) const;

  const Table& table_;
  std::vector<size_t> keyColumns_;
  // Bucket b's rows are bucketRows_[bucketStart_[b] .. bucketStart_[b + 1]),
  // ascending; a bucket is the top bits of the key's hash.
  unsigned bucketShift_ = 63;
  std::vector<uint32_t> bucketStart_;
  std::vector<uint32_t> bucketRows_;
  std::vector<uint32_t> boundRows_;  // the rows in buckets, ascending: for keys with an unbound value
  std::vector<uint32_t> looseRows_;  // rows with an unbound key column
};

// The shared variables of two operators' columns, as pairs of columns.
struct SharedColumns {
  std::vector<size_t> left, right;
};
SharedColumns sharedColumns(const std::vector<std::string>& left, const std::vector<std::string>& right);

// Left's variables followed by those only right has.
std::vector<std::string> mergedVariables(const std::vector<std::string>& left, const std::vector<std::string>& right);

// Writes the merge of two compatible rows into `out` (laid out as mergedVariables).
void appendMergedRow(const Table& left, size_t leftRow, const Table& right, size_t rightRow,
                     const std::vector<std::optional<size_t>>& rightColumnOfOutput, Table& out);

}  // namespace gsparql::engine
