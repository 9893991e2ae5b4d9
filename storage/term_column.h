#pragma once
// The term column: the term of every vertex id, laid out for reading results.
// RocksDB stays the durable dictionary (term -> id lookups, verify); this
// file answers id -> term with two loads from a memory map, no allocation
// and no copy, which is what decoding millions of result cells needs.
//
// File `terms` in the generation directory (docs/storage.md), format 2:
//   TermColumnHeader (64 bytes);
//   `count + 1` little-endian uint64 offsets into the text, the first 0, the
//   last `textBytes`, non-decreasing;
//   the terms (rdf/term.h form) back to back, `textBytes` bytes;
//   zeros up to a multiple of 4 bytes;
//   a uint32 XXH3 sum per block of `blockTerms` terms (storage/id_blocks.h):
//   of the block's offsets, its first term's start to its last term's end,
//   then of its text.
// The header is checked at open; a block (its offsets' order and bounds,
// then its checksum) the first time one of its terms is read, so that a
// damaged file is reported with its block, never read as a wrong term.
// Format 1 (still read) had no blocks, only a checksum of all offsets and
// one of all text: its first read checks the whole file. Databases written
// before this file existed have none: GraphStore::terms() is then null and
// the engine decodes through the dictionary.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "storage/block_checks.h"
#include "storage/dictionary.h"
#include "storage/file_io.h"
#include "storage/id_blocks.h"

namespace gsparql {

inline constexpr const char* kTermsFile = "terms";

inline constexpr char kTermsMagic[8] = {'G', 'S', 'T', 'E', 'R', 'M', 'S', '1'};
inline constexpr uint32_t kTermsFormatVersion = 2;
inline constexpr uint32_t kOldestTermsFormatVersion = 1;
// Terms per checked block in the files this build writes: about 2 KiB
// (WatDiv), so that the first read of a term checks little beside it.
inline constexpr uint32_t kTermsPerBlock = 32;

struct TermColumnHeader {
  char magic[8];             // kTermsMagic
  uint32_t version;          // kTermsFormatVersion
  uint32_t blockTerms;       // format 2: terms per block, a power of two; format 1: zero
  uint64_t count;            // terms = vertices of the generation
  uint64_t textBytes;        // length of the terms' text
  uint64_t fileSize;         // 64 + 8 * (count + 1) + textBytes (format 2: padded to 4, + 4 per block)
  uint32_t offsetsChecksum;  // format 1: crc32 of the offsets; format 2: zero
  uint32_t textChecksum;     // format 1: crc32 of the text; format 2: zero
  uint32_t reserved[3];      // zero
  uint32_t headerChecksum;   // crc32 of the 60 bytes above
};
static_assert(sizeof(TermColumnHeader) == 64);

// Writes the table of terms 0..count-1 and fsyncs it, a block of at most 1M
// terms at a time (`terms.term` is called from several threads).
void writeTermColumn(const std::filesystem::path& path, const NumberedTerms& terms);

class TermColumn {
 public:
  // Maps the file and validates its header; throws StorageError naming the file.
  explicit TermColumn(const std::filesystem::path& path);

  uint32_t size() const { return static_cast<uint32_t>(blocks_.ids + added_.size()); }
  // The term of `id` (< size(); not checked), a view into the mapping.
  // Throws StorageError naming the file and block if the block of `id` is
  // damaged. A block is checked once; later reads cost one atomic load.
  std::string_view term(uint32_t id) const {
    if (id >= blocks_.ids) [[unlikely]] return added_[id - blocks_.ids];
    const size_t block = blocks_.of(id);
    checked_.ensure(block, [this, block] { checkBlock(block); });
    return {text_.data() + offsets_[id], offsets_[id + 1] - offsets_[id]};
  }
  // The terms a delta adds (storage/delta_overlay.h), numbered after the
  // file's and those added before.
  void extend(const std::vector<std::string>& terms) { added_.insert(added_.end(), terms.begin(), terms.end()); }
  // Asks the CPU to bring the entry of `id` into cache, for a term() soon after.
  void prefetch(uint32_t id) const { __builtin_prefetch(offsets_.data() + id); }
  // Checks every block; throws StorageError.
  void verify() const;

 private:
  void checkBlock(size_t block) const;
  void checkOffsets(size_t block, std::span<const uint64_t> offsets) const;
  bool format1Intact() const;

  std::shared_ptr<const MappedFile> file_;  // shared by copies (a snapshot copied: graph_store.h)
  uint32_t version_ = kTermsFormatVersion;
  IdBlocks blocks_;
  std::span<const uint64_t> offsets_;
  std::string_view text_;
  std::span<const uint32_t> blockChecksums_;  // format 2
  uint32_t offsetsChecksum_ = 0;              // format 1
  uint32_t textChecksum_ = 0;                 // format 1
  BlockChecks checked_;
  std::vector<std::string> added_;
};

}  // namespace gsparql
