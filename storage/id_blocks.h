#pragma once
// How the term and value columns (format 2) cut their entries into checked
// blocks: runs of 2^shift consecutive vertex ids, each with an XXH3 sum in a
// table at the end of the file, checked on the block's first use
// (storage/block_checks.h). A file of format 1 has whole-file checksums
// only: it is one block, all ids, checked whole on first use.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "storage/file_header.h"

namespace gsparql {

struct IdBlocks {
  uint64_t ids = 0;     // entries of the file
  uint32_t shift = 32;  // log2 of the ids per block; 32: one block for every uint32 id

  size_t count() const { return static_cast<size_t>((ids + (uint64_t{1} << shift) - 1) >> shift); }
  size_t of(uint32_t id) const { return static_cast<size_t>(uint64_t{id} >> shift); }
  uint64_t first(size_t block) const { return uint64_t{block} << shift; }
  uint64_t end(size_t block) const { return std::min(first(block) + (uint64_t{1} << shift), ids); }
  // "block B (ids X to Y)", for errors.
  std::string name(size_t block) const {
    return "block " + std::to_string(block) + " (ids " + std::to_string(first(block)) + " to " +
           std::to_string(end(block) - 1) + ")";
  }
};

// Blocks of `idsPerBlock` (a power of two) ids.
constexpr IdBlocks blocksOf(uint64_t ids, uint32_t idsPerBlock) {
  return {ids, static_cast<uint32_t>(std::countr_zero(idsPerBlock))};
}

// The blocks of a format-2 file of `ids` entries whose header gives
// `idsPerBlock`; throws StorageError naming the file unless it is a power of two.
inline IdBlocks readBlocks(uint64_t ids, uint32_t idsPerBlock, const std::filesystem::path& path) {
  requireIntact(std::has_single_bit(idsPerBlock), path,
                "ids per block " + std::to_string(idsPerBlock) + ", expected a power of two");
  return blocksOf(ids, idsPerBlock);
}

}  // namespace gsparql
