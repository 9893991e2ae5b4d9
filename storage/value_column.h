#pragma once
// The value column: one rdf::TypedValue per vertex id, computed by the loader
// from each vertex term, so that filters and ORDER BY on numbers, booleans and
// dates compare in memory instead of decoding terms per row.
//
// File `values` in the generation directory (docs/storage.md):
//   ValueFileHeader (64 bytes), then `count` TypedValues (16 bytes each) in
//   vertex-id order. The header has its own checksum, checked at open; the
//   entries' checksum is checked by verify().
// Databases written before this file existed have none: GraphStore::values()
// is then null and the engine decodes terms.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string_view>
#include <vector>

#include "rdf/typed_value.h"
#include "storage/file_io.h"

namespace gsparql {

inline constexpr const char* kValuesFile = "values";

inline constexpr char kValuesMagic[8] = {'G', 'S', 'V', 'A', 'L', 'U', 'E', 'S'};
inline constexpr uint32_t kValuesFormatVersion = 1;

struct ValueFileHeader {
  char magic[8];            // kValuesMagic
  uint32_t version;         // kValuesFormatVersion
  uint32_t entryBytes;      // sizeof(rdf::TypedValue) = 16
  uint64_t count;           // entries = vertices of the generation
  uint64_t fileSize;        // 64 + 16 * count
  uint32_t dataChecksum;    // crc32 of the entries
  uint32_t reserved[6];     // zero
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
  // The value of vertex `vertex` (< size(); not checked).
  const rdf::TypedValue& at(uint32_t vertex) const {
    return vertex < entries_.size() ? entries_[vertex] : added_[vertex - entries_.size()];
  }
  // The values of terms a delta adds (storage/delta_overlay.h), numbered
  // after the file's.
  void extend(std::vector<rdf::TypedValue> values) { added_ = std::move(values); }
  // Recomputes the entries' checksum; throws StorageError on mismatch.
  void verify() const;

 private:
  MappedFile file_;
  uint32_t dataChecksum_ = 0;
  std::span<const rdf::TypedValue> entries_;
  std::vector<rdf::TypedValue> added_;
};

}  // namespace gsparql
