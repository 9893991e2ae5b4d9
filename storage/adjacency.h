#pragma once
// Read side of one adjacency file (all predicates, one direction), mapped
// into memory. Lookups return sorted spans that point into the mapping.
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "storage/file_io.h"
#include "storage/pcsr_format.h"

namespace gsparql {

// One predicate in one direction: both the plain CSR and the PCSR view.
class PredicateAdjacency {
 public:
  PredicateAdjacency() = default;
  PredicateAdjacency(const std::byte* base, const pcsr::PredicateSection& section);

  std::span<const uint32_t> keys() const { return keys_; }
  std::span<const uint32_t> offsets() const { return offsets_; }
  std::span<const uint32_t> neighbours() const { return neighbours_; }
  std::span<const pcsr::Group> groups() const { return groups_; }
  std::span<const uint32_t> groupNeighbours() const { return groupNeighbours_; }
  const pcsr::PredicateSection& section() const { return section_; }

  // Neighbours of `vertex` via the hashed groups (empty if it has none).
  std::span<const uint32_t> neighbours(uint32_t vertex) const;
  // The same list found by binary search over the plain CSR.
  std::span<const uint32_t> neighboursByBinarySearch(uint32_t vertex) const;
  std::span<const uint32_t> neighboursAt(size_t keyIndex) const;

 private:
  pcsr::PredicateSection section_{};
  std::span<const uint32_t> keys_, offsets_, neighbours_, groupNeighbours_;
  std::span<const pcsr::Group> groups_;
};

class AdjacencyFile {
 public:
  AdjacencyFile() = default;
  // Validates header and table of contents; data checksums are checked by verify().
  explicit AdjacencyFile(const std::filesystem::path& path);

  pcsr::Direction direction() const { return direction_; }
  uint32_t predicateCount() const { return static_cast<uint32_t>(predicates_.size()); }
  const PredicateAdjacency& predicate(uint32_t id) const { return predicates_.at(id); }
  // Recomputes every data checksum; throws StorageError naming the predicate on mismatch.
  void verify() const;

 private:
  MappedFile file_;
  pcsr::Direction direction_ = pcsr::Direction::Out;
  std::vector<PredicateAdjacency> predicates_;
};

}  // namespace gsparql
