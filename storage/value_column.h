#pragma once
// The value column: one rdf::TypedValue per vertex id, computed by the loader
// from each vertex term, so that filters and ORDER BY on numbers, booleans and
// dates compare in memory instead of decoding terms per row.
//
// File `values` in the generation directory (docs/storage.md), format 2:
//   ValueFileHeader (64 bytes), then `count` TypedValues (16 bytes each) in
//   vertex-id order, then a uint32 XXH3 sum per block of `blockEntries`
//   entries (storage/id_blocks.h). The header has its own checksum, checked
//   at open; a block's checksum is checked the first time one of its
//   entries is read, so that a damaged entry is reported with its block,
//   never compared as a wrong value. Format 1 (still read) had one checksum
//   of all entries: its first read checks the whole file.
// Databases written before this file existed have none: GraphStore::values()
// is then null and the engine decodes terms.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "rdf/typed_value.h"
#include "storage/block_checks.h"
#include "storage/file_io.h"
#include "storage/id_blocks.h"

namespace gsparql {

inline constexpr const char* kValuesFile = "values";

inline constexpr char kValuesMagic[8] = {'G', 'S', 'V', 'A', 'L', 'U', 'E', 'S'};
inline constexpr uint32_t kValuesFormatVersion = 2;
inline constexpr uint32_t kOldestValuesFormatVersion = 1;
// Entries per checked block in the files this build writes: 2 KiB.
inline constexpr uint32_t kValuesPerBlock = 128;

struct ValueFileHeader {
  char magic[8];            // kValuesMagic
  uint32_t version;         // kValuesFormatVersion
  uint32_t entryBytes;      // sizeof(rdf::TypedValue) = 16
  uint64_t count;           // entries = vertices of the generation
  uint64_t fileSize;        // 64 + 16 * count (format 2: + 4 per block)
  uint32_t dataChecksum;    // format 1: crc32 of the entries; format 2: zero
  uint32_t blockEntries;    // format 2: entries per block, a power of two; format 1: zero
  uint32_t reserved[5];     // zero
  uint32_t headerChecksum;  // crc32 of the 60 bytes above
};
static_assert(sizeof(ValueFileHeader) == 64);

// Writes the column for vertices 0..count-1, whose terms `term(id)` gives
// (called concurrently from several threads), and fsyncs the file. Parses in
// parallel, a block of at most 1M entries (16 MiB) at a time.
void writeValueColumn(const std::filesystem::path& path, uint32_t count,
                      const std::function<std::string_view(uint32_t id)>& term);

class ValueColumn {
 public:
  // Maps the file and validates its header; throws StorageError naming the file.
  explicit ValueColumn(const std::filesystem::path& path);

  uint32_t size() const { return static_cast<uint32_t>(entries_.size() + added_.size()); }
  // The value of vertex `vertex` (< size(); not checked). Throws
  // StorageError naming the file and block if the block of `vertex` is
  // damaged. A block is checked once; later reads cost one atomic load.
  const rdf::TypedValue& at(uint32_t vertex) const {
    if (vertex >= entries_.size()) [[unlikely]] return added_[vertex - entries_.size()];
    const size_t block = blocks_.of(vertex);
    checked_.ensure(block, [this, block] { checkBlock(block); });
    return entries_[vertex];
  }
  // The values of terms a delta adds (storage/delta_overlay.h), numbered
  // after the file's and those added before.
  void extend(const std::vector<rdf::TypedValue>& values) { added_.insert(added_.end(), values.begin(), values.end()); }
  // Checks every block; throws StorageError.
  void verify() const;

 private:
  void checkBlock(size_t block) const;

  std::shared_ptr<const MappedFile> file_;  // shared by copies (a snapshot copied: graph_store.h)
  uint32_t version_ = kValuesFormatVersion;
  IdBlocks blocks_;
  std::span<const rdf::TypedValue> entries_;
  std::span<const uint32_t> blockChecksums_;  // format 2
  uint32_t dataChecksum_ = 0;                 // format 1
  BlockChecks checked_;
  std::vector<rdf::TypedValue> added_;
};

}  // namespace gsparql
