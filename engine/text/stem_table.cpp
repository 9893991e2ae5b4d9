#include "engine/text/stem_table.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <mutex>
#include <tuple>

#include "engine/text/stemmer.h"

namespace gsparql::engine::text {

StemTable::StemTable(const TextIndex& index, const std::string& language) : index_(index) {
  index_.forEachWordStartingWith("", [&](std::string_view word) { byStem_.emplace_back(std::string(), word); });
  // Isolated: a caller holding a lock gets no unrelated task.
  tbb::this_task_arena::isolate([&] {
    tbb::parallel_for(tbb::blocked_range<size_t>(0, byStem_.size(), 4096), [&](const tbb::blocked_range<size_t>& r) {
      const std::unique_ptr<Stemmer> stemmer = Stemmer::forLanguage(language);
      for (size_t i = r.begin(); i < r.end(); ++i) byStem_[i].first = stemmer->stem(byStem_[i].second);
    });
  });
  std::sort(byStem_.begin(), byStem_.end());
}

std::vector<std::string_view> StemTable::wordsWithStem(std::string_view stem) const {
  const auto byStemOnly = [](const auto& entry, std::string_view s) { return entry.first < s; };
  std::vector<std::string_view> words;
  for (auto it = std::lower_bound(byStem_.begin(), byStem_.end(), stem, byStemOnly);
       it != byStem_.end() && it->first == stem; ++it) {
    words.push_back(it->second);
  }
  return words;
}

std::shared_ptr<const StemTable> stemTable(const TextIndex& index, const std::string& language) {
  using Key = std::tuple<const void*, size_t, std::string>;
  // Never destroyed: a search may run while the process exits.
  static std::mutex& mutex = *new std::mutex;
  static auto& kept = *new std::vector<std::pair<Key, std::shared_ptr<const StemTable>>>;  // the last used last
  const auto [file, added] = index.wordsIdentity();
  const Key key{file, added, language};
  std::lock_guard lock(mutex);  // one table made at a time: concurrent searches wait for it rather than repeat it
  const auto it = std::find_if(kept.begin(), kept.end(), [&](const auto& entry) { return entry.first == key; });
  std::shared_ptr<const StemTable> table = it != kept.end() ? it->second : std::make_shared<StemTable>(index, language);
  if (it != kept.end()) kept.erase(it);
  kept.emplace_back(key, table);
  if (kept.size() > kKeptTables) kept.erase(kept.begin());
  return table;
}

}  // namespace gsparql::engine::text
