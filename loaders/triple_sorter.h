#pragma once
// Collects encoded triples in a bounded buffer; full buffers are sorted,
// de-duplicated and spilled to run files, which are merged at the end. Memory
// stays at the buffer size however many triples arrive.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <vector>

#include "loaders/page_allocator.h"
#include "storage/adjacency_writer.h"
#include "storage/file_io.h"

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

  // The sorted, unique triples, one predicate at a time: each predicate's
  // (subject, object) edges in ascending order, predicates ascending.
  class PredicateReader {
   public:
    // False after the last predicate.
    bool next(uint32_t& predicate, std::vector<Edge>& edges);

   private:
    friend class TripleSorter;
    std::vector<MappedFile> mapped_;
    std::vector<std::span<const Triple>> runs_;  // what is left of each run
  };
  // After the last add; the sorter must outlive the reader.
  PredicateReader readPredicates();

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
  std::vector<Triple, PageAllocator<Triple>> buffer_;  // reserved whole: see PageAllocator
  std::vector<std::filesystem::path> runs_;
  double sortSeconds_ = 0;
};

}  // namespace gsparql
