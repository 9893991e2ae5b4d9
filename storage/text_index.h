#pragma once
// The text index: for every word (storage/text_words.h) of the store's
// string literals, the literals that hold it, with how often and among how
// many words, for ranking. What `text:query` searches (engine/text/).
//
// File `text` in the generation directory (docs/storage.md), format 1:
//   TextIndexHeader (64 bytes);
//   `words + 1` uint64 offsets into the word text, the first 0;
//   `words + 1` uint64 offsets into the postings, the first 0;
//   `postings` uint32 literal ids, each word's ascending;
//   `postings` uint32 counts: the word's occurrences in the literal (top 8
//   bits, at most 255) and the literal's words (low 24 bits, at most 2^24-1);
//   the words, UTF-8, in byte order, back to back.
// The header is checked at open; the rest (one XXH3 sum) on first use, so a
// database opens as fast without it and a damaged index is reported, never
// searched. Literals a delta adds are indexed in memory when it is read.
// Databases written before this file existed have none: GraphStore::text()
// is then null, and a text query says to load the data again.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "storage/dictionary.h"
#include "storage/file_io.h"

namespace gsparql {

inline constexpr const char* kTextFile = "text";

inline constexpr char kTextMagic[8] = {'G', 'S', 'T', 'E', 'X', 'T', 'I', '1'};
inline constexpr uint32_t kTextFormatVersion = 1;

struct TextIndexHeader {
  char magic[8];            // kTextMagic
  uint32_t version;         // kTextFormatVersion
  uint32_t literals;        // literals indexed (with at least one word)
  uint64_t words;           // distinct words
  uint64_t postings;        // (word, literal) pairs
  uint64_t wordBytes;       // length of the words' text
  uint64_t literalWords;    // words of all indexed literals, repeats counted
  uint64_t fileSize;        // the whole file
  uint32_t bodyChecksum;    // XXH3 (low 32 bits) of everything after the header
  uint32_t headerChecksum;  // crc32 of the 60 bytes above
};
static_assert(sizeof(TextIndexHeader) == 64);

struct TextPosting {
  uint32_t literal = 0;  // vertex id
  uint32_t count = 0;    // occurrences of the word in it
  uint32_t length = 0;   // its words
};

// Indexes the string literals among vertices 0..count-1 (`terms.term` is
// called from several threads) and fsyncs the file.
void writeTextIndex(const std::filesystem::path& path, const NumberedTerms& terms);

class TextIndex {
 public:
  // Maps the file and checks its header; throws StorageError naming the file.
  explicit TextIndex(const std::filesystem::path& path);

  // The literals holding `word` (lower case, as WordSplitter makes it),
  // ascending. Throws StorageError if the index is damaged.
  std::vector<TextPosting> postings(std::string_view word) const;
  // Every indexed word starting with `prefix`, in byte order, once each.
  void forEachWordStartingWith(std::string_view prefix, const std::function<void(std::string_view)>& visit) const;
  // Every indexed word holding `part` (not empty), once each, by a scan of the words.
  void forEachWordContaining(std::string_view part, const std::function<void(std::string_view)>& visit) const;
  uint64_t literals() const { return literals_ + added_.literals; }
  // Equal for copies of one index with the same words (the engine's caches
  // of what it derives from the words key on it); distinct while they live.
  std::pair<const void*, size_t> wordsIdentity() const { return {file_.get(), added_.words.size()}; }
  double averageLength() const;

  // Indexes the terms a delta adds (storage/delta_overlay.h), numbered from `firstId`.
  void extend(uint32_t firstId, const std::vector<std::string>& terms);
  // Checks the whole file; throws StorageError.
  void verify() const;

 private:
  struct Checked {
    std::once_flag once;
  };
  // What deltas added: ids above the file's, so each word's list stays ascending after the file's.
  struct Added {
    std::map<std::string, std::vector<TextPosting>, std::less<>> words;
    uint64_t literals = 0;
    uint64_t literalWords = 0;
  };

  void ensureChecked() const;
  std::string_view word(size_t i) const;
  size_t lowerBound(std::string_view word) const;

  std::shared_ptr<const MappedFile> file_;  // shared by copies (a snapshot copied: graph_store.h)
  std::shared_ptr<Checked> checked_;
  uint64_t words_ = 0;
  uint64_t literals_ = 0;
  uint64_t literalWords_ = 0;
  uint32_t bodyChecksum_ = 0;
  std::span<const uint64_t> wordOffsets_;
  std::span<const uint64_t> postingOffsets_;
  std::span<const uint32_t> ids_;
  std::span<const uint32_t> counts_;
  std::string_view wordText_;
  Added added_;
};

}  // namespace gsparql
