#pragma once
// A text index's words grouped by their stem in one language, for searches
// with lang:TAG (text_search.h): made once per index and language in a
// process, every word stemmed on several threads (Snowball takes about
// 0.2 us a word: 0.1 s of one core for WatDiv SF100's 531,412 words), and
// kept for the last kKeptTables. A search waits only for its own table.
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "storage/text_index.h"

namespace gsparql::engine::text {

class StemTable {
 public:
  StemTable(const TextIndex& index, const std::string& language);
  // The index's words whose stem is `stem`, in byte order.
  std::vector<std::string_view> wordsWithStem(std::string_view stem) const;

 private:
  TextIndex index_;  // a copy: keeps the words it lists mapped
  std::vector<std::pair<std::string, std::string_view>> byStem_;  // (stem, word), sorted
};

inline constexpr size_t kKeptTables = 4;

// The table of `index`'s words in `language` (a tag Stemmer::forLanguage
// knows), made by the first search that needs it while those after it wait.
std::shared_ptr<const StemTable> stemTable(const TextIndex& index, const std::string& language);

}  // namespace gsparql::engine::text
