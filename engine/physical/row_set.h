#pragma once
// A set of rows of ids, DISTINCT's memory: open addressing over one flat
// array of the rows kept, no allocation per row (a node set of strings took
// about 1 us a row: 7 s for the 7.8M rows of LUBM(1000)'s Q14). Rows of one
// vertex id, the common DISTINCT ?x, are bits over the vertices instead: a
// bit a row rather than a hashed slot (LUBM's Q6 at a billion triples keeps
// 75.7M such rows), once there are many: the bits span every vertex id, and
// for a few rows zeroing them costs more than hashing.
#include <cstdint>
#include <span>
#include <vector>

#include "engine/value/value_id.h"

namespace gsparql::engine {

class RowSet {
 public:
  explicit RowSet(size_t width) : width_(width) {}

  // True if the row was not in the set; it is now.
  bool insert(std::span<const ValueId> row);
  void clear();
  // What the set holds in memory, for the query's memory budget.
  uint64_t bytes() const {
    return rows_.capacity() * sizeof(ValueId) + hashes_.capacity() * sizeof(uint64_t) +
           slots_.capacity() * sizeof(uint32_t) + vertexBits_.capacity() * sizeof(uint64_t);
  }

 private:
  bool insertVertex(uint32_t vertex);
  // From hashed slots to bits for the one-id vertex rows, which then go there only.
  void startVertexBits();
  bool equalAt(uint32_t kept, std::span<const ValueId> row) const;
  void grow();
  size_t slotOf(uint64_t hash) const { return static_cast<size_t>(hash >> shift_); }

  size_t width_;
  std::vector<ValueId> rows_;     // the rows kept, width_ ids each
  std::vector<uint64_t> hashes_;  // of each row kept, for growing
  std::vector<uint32_t> slots_;   // 0: empty; else 1 + the index of a row kept
  std::vector<uint64_t> vertexBits_;  // one-id rows of vertices
  unsigned shift_ = 64;
};

}  // namespace gsparql::engine
