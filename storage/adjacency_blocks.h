#pragma once
// Format 4's checks of an adjacency file, block by block (pcsr_format.h): a
// block (4 KiB of one array of one predicate's section) is checked the
// first time a lookup reads it, against its sum in the file's table of
// block sums and then against the format's rules for its elements
// (adjacency_check.h). The first query of a process thus checks what it
// reads, as a RocksDB read checks the blocks it reads, rather than every
// predicate it touches whole (WatDiv SF100: up to tens of MB before the
// first row of a query that reads a few KB).
#include <bit>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "storage/adjacency_arrays.h"
#include "storage/block_checks.h"
#include "storage/pcsr_format.h"

namespace gsparql {

class SectionBlocks {
 public:
  // The blocks of predicate `predicate`'s section, `arrays` as mapped;
  // `sums` are its blocks' sums, in array order. Flags from `firstFlag` in
  // `checks`: one per block, then one per array for the whole array.
  SectionBlocks(const std::string& path, uint64_t vertexCount, uint32_t predicate,
                const pcsr::PredicateSection& section, const UncheckedArrays& arrays,
                std::span<const uint64_t> sums, const BlockChecks& checks, size_t firstFlag);

  // How many flags a section of these counts takes, and how many sums.
  static size_t flagCount(const pcsr::PredicateSection& section);
  static size_t sumCount(const pcsr::PredicateSection& section);

  // Elements [begin, end) of `array` checked (throws StorageError).
  void ensure(AdjacencyArray array, size_t begin, size_t end) const {
    // Lookups call this for every row: shifts by constants, and one flag
    // (an atomic load) where the elements lie in one block, as they mostly do.
    const unsigned shift = array == AdjacencyArray::Groups ? kGroupsPerBlockLog2 : kIdsPerBlockLog2;
    const size_t first = begin >> shift, last = (end - 1) >> shift;
    const size_t flags = firstFlag_[static_cast<size_t>(array)];
    if (first == last) [[likely]] {
      checks_.ensure(flags + first, [&] { checkBlock(array, first); });
      return;
    }
    for (size_t block = first; block <= last; ++block) {
      checks_.ensure(flags + block, [&] { checkBlock(array, block); });
    }
  }
  // Every block of `array` checked, on several threads where there are many.
  void ensureWhole(AdjacencyArray array) const;
  // Every block checked again, whatever passed before (AdjacencyFile::verify).
  void checkAll() const;
  std::span<const uint64_t> sums() const { return sums_; }

 private:
  size_t blocksOf(AdjacencyArray array) const;
  void checkBlock(AdjacencyArray array, size_t block) const;

  const std::string& path_;
  uint64_t vertexCount_;
  uint32_t predicate_;
  pcsr::PredicateSection section_;
  UncheckedArrays arrays_;
  std::span<const uint64_t> sums_;
  BlockChecks checks_;
  static constexpr unsigned kIdsPerBlockLog2 = std::countr_zero(pcsr::kCheckBlockBytes / sizeof(uint32_t));
  static constexpr unsigned kGroupsPerBlockLog2 = std::countr_zero(pcsr::kCheckBlockBytes / sizeof(pcsr::Group));

  size_t firstSum_[kAdjacencyArrays];   // of each array's blocks, in sums_
  size_t firstFlag_[kAdjacencyArrays];  // of each array's blocks, in checks_
  size_t wholeFlag_;  // of the first array; the others follow
};

// The blocks of one file's sections, by predicate id; copies of the file
// (snapshots) share them, and with them what has been checked.
struct FileBlocks {
  std::string path;
  BlockChecks checks;
  std::vector<SectionBlocks> sections;
};

}  // namespace gsparql
