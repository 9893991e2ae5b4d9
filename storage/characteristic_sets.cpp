#include "storage/characteristic_sets.h"

#include <algorithm>
#include <unordered_map>

namespace gsparql {
namespace {

// SplitMix64's finalizer: predicates' hashes whose xor tells sets apart.
uint64_t hashOf(uint32_t predicate) {
  uint64_t z = (predicate + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

std::vector<CharacteristicSet> findCharacteristicSets(const AdjacencyFile& out, uint64_t vertexCount, size_t keep) {
  std::vector<uint64_t> signature(vertexCount, 0);
  for (uint32_t p = 0; p < out.predicateCount(); ++p) {
    for (uint32_t subject : out.predicate(p).keys()) signature[subject] ^= hashOf(p);
  }
  std::unordered_map<uint64_t, uint64_t> subjects;
  for (uint64_t s : signature) {
    if (s != 0) ++subjects[s];
  }
  std::vector<std::pair<uint64_t, uint64_t>> largest(subjects.begin(), subjects.end());  // (signature, subjects)
  const size_t kept = std::min(keep, largest.size());
  std::partial_sort(largest.begin(), largest.begin() + static_cast<std::ptrdiff_t>(kept), largest.end(),
                    [](const auto& a, const auto& b) { return a.second != b.second ? a.second > b.second : a.first < b.first; });
  largest.resize(kept);
  std::unordered_map<uint64_t, size_t> index;
  std::vector<CharacteristicSet> sets(kept);
  for (size_t i = 0; i < kept; ++i) {
    index.emplace(largest[i].first, i);
    sets[i].subjects = largest[i].second;
  }
  for (uint32_t p = 0; p < out.predicateCount(); ++p) {
    const PredicateAdjacency& adjacency = out.predicate(p);
    for (size_t k = 0; k < adjacency.keys().size(); ++k) {
      const auto it = index.find(signature[adjacency.keys()[k]]);
      if (it == index.end()) continue;
      auto& predicates = sets[it->second].predicates;  // filled in predicate order
      if (predicates.empty() || predicates.back().first != p) predicates.emplace_back(p, 0);
      predicates.back().second += adjacency.neighboursAt(k).size();
    }
  }
  return sets;
}

}  // namespace gsparql
