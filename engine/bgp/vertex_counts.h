#pragma once
// GROUP BY ?v with COUNT(*) over a BGP, where its rows are found: the rows
// per value of one vertex column, as a counter per vertex of the store
// (8 bytes a vertex: 8 MB for WatDiv SF100's million), read out in vertex
// order, so that every executor gives the groups in one order.
#include <cstdint>
#include <span>
#include <vector>

namespace gsparql::engine {

struct VertexCount {
  uint32_t vertex;
  uint64_t rows;
  bool operator==(const VertexCount&) const = default;
};
// Ascending vertices, each with at least one row.
using VertexCounts = std::vector<VertexCount>;

// The counts of parts of one BGP's rows (a device's chunks, say), added
// per vertex: the counts of all the rows, in vertex order.
VertexCounts addCounts(std::vector<VertexCounts> parts);

class VertexCounter {
 public:
  explicit VertexCounter(uint64_t vertexCount) : counts_(vertexCount, 0) {}
  static uint64_t bytesFor(uint64_t vertexCount) { return vertexCount * sizeof(uint64_t); }

  // Counts a row for every id of a column of vertex ids of the store.
  void add(std::span<const uint32_t> column) {
    for (uint32_t v : column) ++counts_.at(v);
  }
  // The vertices counted, with their rows; `counts` (a device's) in place of this counter's.
  static VertexCounts counted(std::span<const uint64_t> counts) {
    VertexCounts out;
    for (uint32_t v = 0; v < counts.size(); ++v) {
      if (counts[v] != 0) out.push_back({v, counts[v]});
    }
    return out;
  }
  VertexCounts counted() const { return counted(counts_); }

 private:
  std::vector<uint64_t> counts_;
};

}  // namespace gsparql::engine
