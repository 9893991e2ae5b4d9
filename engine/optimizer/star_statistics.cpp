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

}  // namespace

const std::vector<uint32_t>* StarStatistics::candidateSets(const std::vector<uint32_t>& required,
                                                           const std::vector<uint32_t>& counted) const {
  const auto& index = catalog_->setsWithPredicate;
  if (index.size() != catalog_->predicates.size()) return nullptr;
  const std::vector<uint32_t>* fewest = nullptr;
  for (const auto* predicates : {&required, &counted}) {
    for (uint32_t p : *predicates) {
      if (p < index.size() && (fewest == nullptr || index[p].size() < fewest->size())) fewest = &index[p];
    }
  }
  return fewest;
}

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
  // Planning asks this for every star of every query: only the sets of the
  // rarest predicate are read, and a set lacking a predicate is left at its first miss.
  auto holds = [](const CharacteristicSet& set, uint32_t p) { return triplesOf(set, p) > 0; };
  double total = 0;
  const auto add = [&](const CharacteristicSet& set) {
    if (!std::all_of(required.begin(), required.end(), [&](uint32_t p) { return holds(set, p); })) return;
    const auto subjects = static_cast<double>(set.subjects);
    double rows = subjects;
    for (uint32_t p : counted) {
      const uint64_t triples = triplesOf(set, p);
      if (triples == 0) return;
      rows *= static_cast<double>(triples) / subjects;
    }
    total += rows;
  };
  if (const auto* candidates = candidateSets(required, counted)) {
    for (uint32_t i : *candidates) add(catalog_->characteristicSets[i]);
  } else {
    for (const CharacteristicSet& set : catalog_->characteristicSets) add(set);
  }
  return total;
}

}  // namespace gsparql::engine
