#pragma once
// Collects encoded triples in a bounded buffer; full buffers are sorted,
// de-duplicated and spilled to run files, which are merged at the end. Memory
// stays at the buffer size however many triples arrive.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <vector>

#include "storage/adjacency_writer.h"

namespace gsparql {

// Field order is the sort order: predicate, subject, object.
struct Triple {
  uint32_t p, s, o;
  friend auto operator<=>(const Triple&, const Triple&) = default;
};

class TripleSorter {
 public:
  TripleSorter(std::filesystem::path scratchDir, uint64_t memoryBudgetBytes);
  ~TripleSorter();
  TripleSorter(const TripleSorter&) = delete;
  TripleSorter& operator=(const TripleSorter&) = delete;

  void add(const Triple& t) {
    buffer_.push_back(t);
    if (buffer_.size() == capacity_) spill();
  }

  // Visits each predicate's unique (subject, object) edges in ascending
  // order, predicates ascending; the visitor may rewrite the edges in place.
  // Returns the number of unique triples.
  uint64_t forEachPredicate(const std::function<void(uint32_t, std::span<Edge>)>& visit);

  // Rewrites the subject and object of every triple added so far, and sorts
  // them again: for renumberings that do not keep the order.
  void renumberVertices(const std::function<uint32_t(uint32_t)>& renumber);

  // Time spent sorting so far.
  double sortSeconds() const { return sortSeconds_; }

 private:
  void sortUnique();
  void spill();
  void writeRun(const std::filesystem::path& path);  // sorts the buffer into a run file and empties it

  std::filesystem::path scratchDir_;
  size_t capacity_;
  std::vector<Triple> buffer_;
  std::vector<std::filesystem::path> runs_;
  double sortSeconds_ = 0;
};

}  // namespace gsparql
