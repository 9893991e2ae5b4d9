#pragma once
// Distinct vertex ids marked in a bitset over all the store's vertices:
// COUNT(DISTINCT ?v) in vertexCount / 8 bytes, however many rows carry them.
#include <cstdint>
#include <vector>


namespace gsparql::engine {

class DistinctVertices {
 public:
  explicit DistinctVertices(uint64_t vertexCount) : words_((vertexCount + 63) / 64) {}

  // Marks every id of a column of vertex ids of the store.
  void add(const std::vector<uint32_t>& column) {
    for (uint32_t v : column) insert(v);
  }
  void insert(uint32_t v) {
    uint64_t& word = words_.at(v >> 6);
    const uint64_t bit = uint64_t{1} << (v & 63);
    count_ += (word & bit) == 0;
    word |= bit;
  }
  uint64_t count() const { return count_; }
  bool contains(uint32_t v) const { return (words_.at(v >> 6) >> (v & 63)) & 1; }

 private:
  std::vector<uint64_t> words_;
  uint64_t count_ = 0;
};

}  // namespace gsparql::engine
