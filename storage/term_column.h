#pragma once
// The term column: the term of every vertex id, laid out for reading results.
// RocksDB stays the durable dictionary (term -> id lookups, verify); this
// file answers id -> term with two loads from a memory map, no allocation
// and no copy, which is what decoding millions of result cells needs.
//
// File `terms` in the generation directory (docs/storage.md):
//   TermColumnHeader (64 bytes);
//   `count + 1` little-endian uint64 offsets into the text, the first 0, the
//   last `textBytes`, non-decreasing;
//   the terms (rdf/term.h form) back to back, `textBytes` bytes.
// The header is checked at open, an entry's offsets when it is read, and the
// checksums of offsets and text by verify(). Databases written before this
// file existed have none: GraphStore::terms() is then null and the engine
// decodes through the dictionary.
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "storage/dictionary.h"
#include "storage/file_io.h"

namespace gsparql {

inline constexpr const char* kTermsFile = "terms";

inline constexpr char kTermsMagic[8] = {'G', 'S', 'T', 'E', 'R', 'M', 'S', '1'};
inline constexpr uint32_t kTermsFormatVersion = 1;

struct TermColumnHeader {
  char magic[8];             // kTermsMagic
  uint32_t version;          // kTermsFormatVersion
  uint32_t reserved0;        // zero
  uint64_t count;            // terms = vertices of the generation
  uint64_t textBytes;        // length of the terms' text
  uint64_t fileSize;         // 64 + 8 * (count + 1) + textBytes
  uint32_t offsetsChecksum;  // crc32 of the offsets
  uint32_t textChecksum;     // crc32 of the text
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

  uint32_t size() const { return static_cast<uint32_t>(offsets_.size() - 1 + added_.size()); }
  // The term of `id` (< size(); not checked), a view into the mapping.
  // Throws StorageError if the entry's offsets are damaged.
  std::string_view term(uint32_t id) const {
    if (id >= offsets_.size() - 1) [[unlikely]] return added_[id - (offsets_.size() - 1)];
    const uint64_t begin = offsets_[id], end = offsets_[id + 1];
    if (begin > end || end > text_.size()) [[unlikely]] throwDamagedEntry(id);
    return text_.substr(begin, end - begin);
  }
  // The terms a delta adds (storage/delta_overlay.h), numbered after the file's.
  void extend(std::vector<std::string> terms) { added_ = std::move(terms); }
  // Asks the CPU to bring the entry of `id` into cache, for a term() soon after.
  void prefetch(uint32_t id) const { __builtin_prefetch(offsets_.data() + id); }
  // Recomputes both checksums and checks the offsets; throws StorageError.
  void verify() const;

 private:
  [[noreturn]] void throwDamagedEntry(uint32_t id) const;

  MappedFile file_;
  uint32_t offsetsChecksum_ = 0;
  uint32_t textChecksum_ = 0;
  std::span<const uint64_t> offsets_;
  std::string_view text_;
  std::vector<std::string> added_;
};

}  // namespace gsparql
