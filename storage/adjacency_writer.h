#pragma once
// Write side of an adjacency file: predicates are added in id order, each
// with its edges sorted by (key, neighbour) and free of duplicates.
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "storage/adjacency.h"
#include "storage/file_io.h"
#include "storage/pcsr_format.h"

namespace gsparql {

struct Edge {
  uint32_t key;
  uint32_t neighbour;
  friend bool operator==(const Edge&, const Edge&) = default;
  friend auto operator<=>(const Edge&, const Edge&) = default;
};

// One predicate's section in one direction, built and checksummed but not
// written: sections are built on any thread, and written in predicate order.
class AdjacencySection {
 public:
  AdjacencySection() : AdjacencySection(std::span<const Edge>()) {}  // a predicate without edges
  // `edges` sorted by (key, neighbour) and free of duplicates.
  explicit AdjacencySection(std::span<const Edge> edges);

  uint32_t edgeCount() const { return static_cast<uint32_t>(neighbours_.size()); }
  uint32_t keyCount() const { return static_cast<uint32_t>(keys_.size()); }
  uint32_t maxDegree() const { return maxDegree_; }
  // The section as a reader sees a file's (a delta's predicate,
  // AdjacencyFile::replace); valid while this object lives.
  PredicateAdjacency view() const;

 private:
  friend class AdjacencyWriter;
  std::vector<uint32_t> keys_, offsets_, neighbours_;
  std::vector<pcsr::Group> groups_;
  std::vector<uint32_t> groupNeighbours_;  // the neighbour lists in group order
  uint32_t maxDegree_ = 0;
  uint32_t longestChain_ = 0;
  std::vector<uint64_t> blockSums_;  // of the arrays' blocks (pcsr::kCheckBlockBytes), in the order written
  uint32_t checksum_ = 0;
};

class AdjacencyWriter {
 public:
  AdjacencyWriter(const std::filesystem::path& path, pcsr::Direction direction);

  // Predicates skipped between calls get empty sections.
  void addPredicate(uint32_t predicateId, const AdjacencySection& section);
  void addPredicate(uint32_t predicateId, std::span<const Edge> edges) {
    addPredicate(predicateId, AdjacencySection(edges));
  }
  // Pads the file with empty sections up to `predicateCount`, writes the
  // table of contents and header, and fsyncs.
  void finish(uint32_t predicateCount);

 private:
  void writeSection(const AdjacencySection& section);
  template <typename T>
  uint64_t writeAligned(std::span<const T> values);

  OutputFile file_;
  pcsr::Direction direction_;
  std::vector<pcsr::PredicateSection> toc_;
  std::vector<uint64_t> blockSums_;  // every section's, in order
};

}  // namespace gsparql
