#pragma once
// The groups of GROUP BY by their keys' ids: an open-addressing hash table
// (linear probing, DuckDB's and QLever's choice for aggregation) of group
// numbers, the keys stored one after another. Finding a row's group
// allocates nothing; a std::map of vectors allocated a key per row and
// compared ids down a tree. Groups are numbered in order of first
// appearance, so the output order is the input's, whatever the hashes.
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "engine/value/value_id.h"

namespace gsparql::engine {

class GroupIndex {
 public:
  explicit GroupIndex(size_t width) : width_(width) {}

  // The number of `key`'s group, and whether the group is new.
  std::pair<size_t, bool> findOrAdd(std::span<const ValueId> key);
  std::span<const ValueId> key(size_t group) const { return {keys_.data() + group * width_, width_}; }
  size_t size() const { return hashes_.size(); }
  void clear();

 private:
  void grow();
  size_t slotOf(uint64_t hash) const { return static_cast<size_t>(hash >> shift_); }

  size_t width_;
  std::vector<ValueId> keys_;      // group g's key at [g * width_, (g + 1) * width_)
  std::vector<uint64_t> hashes_;   // group g's key's hash, for growing and a quick mismatch
  std::vector<uint32_t> slots_;    // a group's number + 1; 0: empty
  unsigned shift_ = 64;
};

}  // namespace gsparql::engine
