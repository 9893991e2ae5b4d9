#pragma once
// Read side of one adjacency file (all predicates, one direction), mapped
// into memory. Lookups return sorted spans that point into the mapping.
//
// Nothing read from the file is trusted before it is checked, so that a
// damaged file ends a query with "database corrupted: FILE, offset N: ..."
// instead of reading out of bounds or answering wrongly: header and table of
// contents when the file is opened (no data is read), and each predicate's
// data (checksum, then the format's rules: adjacency_check.h) the first time
// predicate() hands it out.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <vector>

#include "storage/block_checks.h"
#include "storage/file_io.h"
#include "storage/pcsr_format.h"

namespace gsparql {

// One predicate in one direction: both the plain CSR and the PCSR view.
class PredicateAdjacency {
 public:
  PredicateAdjacency() = default;
  // A section of a file of format `version` mapped at `base`.
  PredicateAdjacency(const std::byte* base, const pcsr::PredicateSection& section, uint32_t version);
  // Arrays held elsewhere in memory (AdjacencySection::view(), the current
  // format); `section` gives the counts, its offsets mean nothing.
  PredicateAdjacency(const pcsr::PredicateSection& section, std::span<const uint32_t> keys,
                     std::span<const uint32_t> offsets, std::span<const uint32_t> neighbours,
                     std::span<const pcsr::Group> groups, std::span<const uint32_t> groupNeighbours)
      : section_(section), primaryGroups_(pcsr::primaryGroupCount(section.keyCount)), keys_(keys),
        offsets_(offsets), neighbours_(neighbours), groupNeighbours_(groupNeighbours), groups_(groups) {}

  std::span<const uint32_t> keys() const { return keys_; }
  std::span<const uint32_t> offsets() const { return offsets_; }
  std::span<const uint32_t> neighbours() const { return neighbours_; }
  std::span<const pcsr::Group> groups() const { return groups_; }
  std::span<const uint32_t> groupNeighbours() const { return groupNeighbours_; }
  const pcsr::PredicateSection& section() const { return section_; }
  // The groups a key hashes to; the rest of groups() are overflow groups.
  uint32_t primaryGroups() const { return primaryGroups_; }

  // Neighbours of `vertex` via the hashed groups (empty if it has none).
  std::span<const uint32_t> neighbours(uint32_t vertex) const;
  // The same list found by binary search over the plain CSR.
  std::span<const uint32_t> neighboursByBinarySearch(uint32_t vertex) const;
  std::span<const uint32_t> neighboursAt(size_t keyIndex) const;

 private:
  pcsr::PredicateSection section_{};
  uint32_t primaryGroups_ = 0;
  std::span<const uint32_t> keys_, offsets_, neighbours_, groupNeighbours_;
  std::span<const pcsr::Group> groups_;
};

class AdjacencySection;

class AdjacencyFile {
 public:
  AdjacencyFile() = default;
  // Validates header and table of contents. Vertex ids must be below
  // `vertexCount` (the catalog's); without it only kNone is out of range.
  explicit AdjacencyFile(const std::filesystem::path& path, uint64_t vertexCount = pcsr::kNone);

  pcsr::Direction direction() const { return direction_; }
  uint32_t predicateCount() const { return static_cast<uint32_t>(predicates_.size()); }
  // Throws StorageError when the predicate's data is corrupt. The data is
  // checked once per file and predicate; later calls cost one atomic load.
  const PredicateAdjacency& predicate(uint32_t id) const {
    const PredicateAdjacency& adjacency = predicates_.at(id);
    checked_.ensure(id, [&] { check(id); });
    return adjacency;
  }
  // Checks every predicate's data again; throws StorageError naming the
  // predicate and the offset of the damage.
  void verify() const;
  // A delta's change (storage/delta_overlay.h): predicate `id` reads
  // `section` instead of the file's from now on; an id past the file's
  // predicates adds predicates (empty ones between). Only while nothing
  // reads this object yet.
  void replace(uint32_t id, std::shared_ptr<const AdjacencySection> section);

 private:
  void check(uint32_t id) const;

  std::shared_ptr<const MappedFile> file_;  // shared by copies (a snapshot copied: graph_store.h)
  pcsr::Direction direction_ = pcsr::Direction::Out;
  uint32_t version_ = pcsr::kFormatVersion;  // the file's: which sum its sections carry
  uint64_t vertexCount_ = 0;
  std::vector<PredicateAdjacency> predicates_;
  std::vector<std::shared_ptr<const AdjacencySection>> replaced_;  // by predicate id; null: the file's
  BlockChecks checked_;  // a block per predicate
};

}  // namespace gsparql
