#pragma once
// Write side of an adjacency file: predicates are added in id order, each
// with its edges sorted by (key, neighbour) and free of duplicates.
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "storage/file_io.h"
#include "storage/pcsr_format.h"

namespace gsparql {

struct Edge {
  uint32_t key;
  uint32_t neighbour;
  friend bool operator==(const Edge&, const Edge&) = default;
  friend auto operator<=>(const Edge&, const Edge&) = default;
};

class AdjacencyWriter {
 public:
  AdjacencyWriter(const std::filesystem::path& path, pcsr::Direction direction);

  // Predicates skipped between calls get empty sections.
  void addPredicate(uint32_t predicateId, std::span<const Edge> edges);
  // Pads the file with empty sections up to `predicateCount`, writes the
  // table of contents and header, and fsyncs.
  void finish(uint32_t predicateCount);

 private:
  void writeSection(std::span<const Edge> edges);
  template <typename T>
  uint64_t writeAligned(std::span<const T> values, uint32_t& crc);

  OutputFile file_;
  pcsr::Direction direction_;
  std::vector<pcsr::PredicateSection> toc_;
};

}  // namespace gsparql
