#pragma once
// Read side of one adjacency file (all predicates, one direction), mapped
// into memory. Lookups return sorted spans that point into the mapping.
//
// Nothing read from the file is trusted before it is checked, so that a
// damaged file ends a query with "database corrupted: FILE, offset N: ..."
// instead of reading out of bounds or answering wrongly: header and table of
// contents when the file is opened (no data is read); then in format 4 each
// predicate's table of block sums the first time predicate() hands it out,
// and each block (its sum, then the format's rules: adjacency_check.h) the
// first time a lookup reads it; in formats 1 to 3 each predicate's whole
// data the first time predicate() hands it out.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <vector>

#include "storage/adjacency_blocks.h"
#include "storage/block_checks.h"
#include "storage/file_io.h"
#include "storage/pcsr_format.h"

namespace gsparql {

// One predicate in one direction: both the plain CSR and the PCSR view.
// Whatever it hands out has passed its checks: in a file of format 4, the
// blocks of the arrays it reads (adjacency_blocks.h), checked on their first
// use: a lookup checks the few blocks it reads, a whole array all of its own.
class PredicateAdjacency {
 public:
  PredicateAdjacency() = default;
  // A section of a file of format `version` mapped at `base`; `blocks`
  // checks its blocks (format 4), or null: checked whole before use.
  PredicateAdjacency(const std::byte* base, const pcsr::PredicateSection& section, uint32_t version,
                     const SectionBlocks* blocks = nullptr);
  // Arrays held elsewhere in memory (AdjacencySection::view(), the current
  // format); `section` gives the counts, its offsets mean nothing.
  PredicateAdjacency(const pcsr::PredicateSection& section, std::span<const uint32_t> keys,
                     std::span<const uint32_t> offsets, std::span<const uint32_t> neighbours,
                     std::span<const pcsr::Group> groups, std::span<const uint32_t> groupNeighbours)
      : section_(section), primaryGroups_(pcsr::primaryGroupCount(section.keyCount)),
        arrays_{keys, offsets, neighbours, groups, groupNeighbours} {}

  // Whole arrays, every block of each checked first.
  std::span<const uint32_t> keys() const { return whole(AdjacencyArray::Keys, arrays_.keys); }
  std::span<const uint32_t> offsets() const { return whole(AdjacencyArray::Offsets, arrays_.offsets); }
  std::span<const uint32_t> neighbours() const { return whole(AdjacencyArray::Neighbours, arrays_.neighbours); }
  std::span<const pcsr::Group> groups() const { return whole(AdjacencyArray::Groups, arrays_.groups); }
  std::span<const uint32_t> groupNeighbours() const {
    return whole(AdjacencyArray::GroupNeighbours, arrays_.groupNeighbours);
  }
  const pcsr::PredicateSection& section() const { return section_; }
  uint32_t keyCount() const { return section_.keyCount; }
  uint32_t edgeCount() const { return section_.edgeCount; }
  // The five arrays' bytes (what a copy of them all takes).
  uint64_t dataBytes() const {
    return arrays_.keys.size_bytes() + arrays_.offsets.size_bytes() + arrays_.neighbours.size_bytes() +
           arrays_.groups.size_bytes() + arrays_.groupNeighbours.size_bytes();
  }
  // The groups a key hashes to; the rest of groups() are overflow groups.
  uint32_t primaryGroups() const { return primaryGroups_; }

  // Lookups, each checking only the blocks it reads.
  // Neighbours of `vertex` via the hashed groups (empty if it has none).
  std::span<const uint32_t> neighbours(uint32_t vertex) const;
  // The same list found by binary search over the plain CSR.
  std::span<const uint32_t> neighboursByBinarySearch(uint32_t vertex) const;
  uint32_t key(size_t keyIndex) const;
  std::span<const uint32_t> neighboursAt(size_t keyIndex) const;
  // The plain CSR's `edgeIndex`-th neighbour.
  uint32_t neighbourAt(uint64_t edgeIndex) const;
  // The key whose list holds the `edgeIndex`-th neighbour of the plain CSR.
  size_t keyIndexOfEdge(uint64_t edgeIndex) const;

  const UncheckedArrays& unchecked() const { return arrays_; }

 private:
  template <typename T>
  std::span<const T> whole(AdjacencyArray array, std::span<const T> values) const {
    if (blocks_ != nullptr) ensureWhole(array);
    return values;
  }
  void ensureWhole(AdjacencyArray array) const { blocks_->ensureWhole(array); }
  // Elements [begin, end) of `array` checked; inline, as lookups call it
  // for every row: a checked block costs an atomic load.
  void ensure(AdjacencyArray array, size_t begin, size_t end) const {
    if (blocks_ != nullptr && begin < end) blocks_->ensure(array, begin, end);
  }

  pcsr::PredicateSection section_{};
  uint32_t primaryGroups_ = 0;
  UncheckedArrays arrays_;
  const SectionBlocks* blocks_ = nullptr;
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
  // Names the bytes predicate `id` reads (storage/data_identity.h): the
  // file's number, shared by copies of this object, or the number its
  // section got from a delta. With the predicate id and the direction, a key
  // to those bytes that nothing else in the process shares.
  uint64_t source(uint32_t id) const { return id < sources_.size() && sources_[id] != 0 ? sources_[id] : identity_; }

 private:
  void check(uint32_t id) const;
  std::shared_ptr<const FileBlocks> readBlocks(const std::filesystem::path& path, const pcsr::FileHeader& header,
                                               std::span<const pcsr::PredicateSection> toc, uint64_t tocBytes) const;

  std::shared_ptr<const MappedFile> file_;  // shared by copies (a snapshot copied: graph_store.h)
  pcsr::Direction direction_ = pcsr::Direction::Out;
  uint32_t version_ = pcsr::kFormatVersion;  // the file's: which sum its sections carry
  uint64_t vertexCount_ = 0;
  std::vector<PredicateAdjacency> predicates_;
  std::vector<std::shared_ptr<const AdjacencySection>> replaced_;  // by predicate id; null: the file's
  uint64_t identity_ = 0;          // the mapped file's
  std::vector<uint64_t> sources_;  // by predicate id: a replaced section's identity; 0: the file's
  BlockChecks checked_;  // a block per predicate: its whole data (formats 1-3) or its block sums (4)
  std::shared_ptr<const FileBlocks> blocks_;  // format 4: the sections' blocks, shared by copies
};

}  // namespace gsparql
