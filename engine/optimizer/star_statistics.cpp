#include "engine/optimizer/star_statistics.h"

#include <algorithm>

namespace gsparql::engine {
namespace {

// The set's triples of `predicate`; 0 where it lacks it.
uint64_t triplesOf(const CharacteristicSet& set, uint32_t predicate) {
  const auto it = std::lower_bound(set.predicates.begin(), set.predicates.end(), predicate,
                                   [](const auto& entry, uint32_t p) { return entry.first < p; });
  return it != set.predicates.end() && it->first == predicate ? it->second : 0;
}

// The first position from `from` on whose set is not below `set`, galloping:
// the lists are walked for the sets of the shortest, so most jumps are long.
size_t seek(const std::vector<SetPosting>& list, size_t from, uint32_t set) {
  size_t end = from;
  for (size_t step = 1; end < list.size() && list[end].set < set; step *= 2) {
    from = end + 1;
    end += step;
  }
  const auto last = list.begin() + static_cast<std::ptrdiff_t>(std::min(end, list.size()));
  const auto it = std::lower_bound(list.begin() + static_cast<std::ptrdiff_t>(from), last, set,
                                   [](const SetPosting& posting, uint32_t s) { return posting.set < s; });
  return static_cast<size_t>(it - list.begin());
}

}  // namespace

double StarStatistics::rows(const std::vector<uint32_t>& required, const std::vector<uint32_t>& counted) const {
  std::vector<uint32_t> key = required;
  std::sort(key.begin(), key.end());
  key.push_back(UINT32_MAX);
  const size_t separator = key.size();
  key.insert(key.end(), counted.begin(), counted.end());
  std::sort(key.begin() + static_cast<std::ptrdiff_t>(separator), key.end());
  const auto [it, inserted] = memo_->try_emplace(std::move(key), 0);
  if (inserted) it->second = sum(required, counted);
  return it->second;
}

double StarStatistics::sum(const std::vector<uint32_t>& required, const std::vector<uint32_t>& counted) const {
  const auto& index = catalog_->setsWithPredicate;
  if (index.size() != catalog_->predicates.size()) return scannedSum(required, counted);
  if (required.empty() && counted.empty()) return static_cast<double>(catalog_->subjectsInSets);
  // Planning asks this for every star of every query: the predicates' lists
  // of sets are merged, walking the shortest, instead of reading each set.
  struct Cursor {
    const std::vector<SetPosting>* list;
    bool counted;
    size_t at = 0;
  };
  std::vector<Cursor> cursors;
  for (const auto* predicates : {&required, &counted}) {
    for (uint32_t p : *predicates) {
      if (p >= index.size()) return 0;
      cursors.push_back({&index[p], predicates == &counted});
    }
  }
  const auto shortest = std::min_element(cursors.begin(), cursors.end(), [](const Cursor& a, const Cursor& b) {
    return a.list->size() < b.list->size();
  });
  // Rows of a set: its subjects times each counted predicate's triples per
  // subject, divided once at the end (divisions would chain the loop).
  double total = 0;
  for (const SetPosting& driver : *shortest->list) {
    const auto subjects = static_cast<double>(catalog_->characteristicSets[driver.set].subjects);
    double rows = subjects, scale = 1;
    for (Cursor& c : cursors) {
      const auto& list = *c.list;
      c.at = seek(list, c.at, driver.set);
      if (c.at == list.size()) return total;
      if (list[c.at].set != driver.set) {
        rows = 0;
        break;
      }
      if (!c.counted) continue;
      rows *= static_cast<double>(list[c.at].triples);
      scale *= subjects;
    }
    total += rows / scale;
  }
  return total;
}

double StarStatistics::scannedSum(const std::vector<uint32_t>& required, const std::vector<uint32_t>& counted) const {
  double total = 0;
  for (const CharacteristicSet& set : catalog_->characteristicSets) {
    const auto holds = [&](uint32_t p) { return triplesOf(set, p) > 0; };
    if (!std::all_of(required.begin(), required.end(), holds)) continue;
    const auto subjects = static_cast<double>(set.subjects);
    double rows = subjects;
    for (uint32_t p : counted) rows *= static_cast<double>(triplesOf(set, p)) / subjects;
    total += rows;
  }
  return total;
}

}  // namespace gsparql::engine
