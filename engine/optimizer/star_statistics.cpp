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

double StarStatistics::rows(const std::vector<uint32_t>& required, const std::vector<uint32_t>& counted) const {
  // Planning asks this for every star of every query: a set lacking a
  // predicate is left at its first miss.
  auto holds = [](const CharacteristicSet& set, uint32_t p) { return triplesOf(set, p) > 0; };
  double total = 0;
  for (const CharacteristicSet& set : *sets_) {
    if (!std::all_of(required.begin(), required.end(), [&](uint32_t p) { return holds(set, p); })) continue;
    const auto subjects = static_cast<double>(set.subjects);
    double rows = subjects;
    for (uint32_t p : counted) {
      const uint64_t triples = triplesOf(set, p);
      if (triples == 0) {
        rows = 0;
        break;
      }
      rows *= static_cast<double>(triples) / subjects;
    }
    total += rows;
  }
  return total;
}

}  // namespace gsparql::engine
