#pragma once
// Which rank owns a vertex: its adjacency in both directions lives there
// (docs/distributed.md). A hash of the id, not the id modulo the ranks: ids
// are numbered in load order, and a dataset's kinds of vertex come in runs.
#include <cstdint>

namespace gsparql::distributed {

class VertexPartition {
 public:
  VertexPartition(int rank, int ranks) : rank_(rank), ranks_(static_cast<uint32_t>(ranks)) {}

  int rank() const { return rank_; }
  int ranks() const { return static_cast<int>(ranks_); }
  int owner(uint32_t vertex) const {
    return static_cast<int>((static_cast<uint64_t>(vertex) * 0x9E3779B97F4A7C15ull >> 32) % ranks_);
  }
  bool owns(uint32_t vertex) const { return owner(vertex) == rank_; }

 private:
  int rank_;
  uint32_t ranks_;
};

}  // namespace gsparql::distributed
