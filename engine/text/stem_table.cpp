#include "engine/text/stem_table.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <future>
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
  // On the threads too: the sort took about a quarter of a table (531,412 words, 2-core VM).
  tbb::this_task_arena::isolate([&] { tbb::parallel_sort(byStem_.begin(), byStem_.end()); });
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
  using Table = std::shared_future<std::shared_ptr<const StemTable>>;
  // Never destroyed: a search may run while the process exits.
  static std::mutex& mutex = *new std::mutex;
  static auto& kept = *new std::vector<std::pair<Key, Table>>;  // the last used last
  const auto [file, added] = index.wordsIdentity();
  const Key key{file, added, language};
  std::promise<std::shared_ptr<const StemTable>> made;
  Table table;
  bool makesIt = false;
  {
    std::lock_guard lock(mutex);
    const auto it = std::find_if(kept.begin(), kept.end(), [&](const auto& entry) { return entry.first == key; });
    if (it != kept.end()) {
      table = it->second;
      kept.erase(it);
    } else {
      table = made.get_future().share();
      makesIt = true;
    }
    kept.emplace_back(key, table);
    if (kept.size() > kKeptTables) kept.erase(kept.begin());
  }
  // Made outside the lock: searches for the same table wait for this one
  // rather than repeat it, searches for another do not wait.
  if (makesIt) {
    try {
      made.set_value(std::make_shared<StemTable>(index, language));
    } catch (...) {
      made.set_exception(std::current_exception());
      std::lock_guard lock(mutex);  // the next search tries again
      std::erase_if(kept, [&](const auto& entry) { return entry.first == key; });
    }
  }
  return table.get();
}

}  // namespace gsparql::engine::text
