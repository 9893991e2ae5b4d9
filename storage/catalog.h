#pragma once
// What a generation holds, in numbers: totals and per-predicate statistics
// (used by `gsparql info` and by the optimizer).
#include <cstdint>
#include <filesystem>
#include <utility>
#include <vector>

#include "gsparql/statistics.h"

namespace gsparql {

// The subjects whose outgoing predicates are exactly `predicates` (RDF-3X's
// characteristic set), and how many triples each predicate has from them:
// what the optimizer's statistics know about stars.
struct CharacteristicSet {
  uint64_t subjects = 0;
  std::vector<std::pair<uint32_t, uint64_t>> predicates;  // (predicate, triples), by predicate
  friend bool operator==(const CharacteristicSet&, const CharacteristicSet&) = default;
};

// One characteristic set in a predicate's list: the set's index and its triples of the predicate.
struct SetPosting {
  uint32_t set = 0;
  uint64_t triples = 0;
  friend bool operator==(const SetPosting&, const SetPosting&) = default;
};

struct Catalog {
  uint64_t generation = 0;
  // Input files loaded so far; each gets its own blank-node scope.
  uint64_t inputFiles = 0;
  uint64_t vertexCount = 0;
  uint64_t tripleCount = 0;
  std::vector<PredicateStatistics> predicates;  // indexed by predicate id
  // The largest characteristic sets, by subjects (storage/characteristic_sets.h);
  // empty in catalogs written before they were kept.
  std::vector<CharacteristicSet> characteristicSets;
  // Per predicate, the sets above that have it, in order: built by
  // readCatalog (indexCharacteristicSets), so that the optimizer finds the
  // sets of a star by merging its predicates' lists.
  std::vector<std::vector<SetPosting>> setsWithPredicate;
  uint64_t subjectsInSets = 0;  // of all the sets above, also built by indexCharacteristicSets
  // The facts, without the index derived from them.
  friend bool operator==(const Catalog& a, const Catalog& b) {
    return a.generation == b.generation && a.inputFiles == b.inputFiles && a.vertexCount == b.vertexCount &&
           a.tripleCount == b.tripleCount && a.predicates == b.predicates &&
           a.characteristicSets == b.characteristicSets;
  }
};

inline constexpr const char* kCatalogFile = "catalog";
// Text, one fact per line, ending with a checksum line.
void writeCatalog(const std::filesystem::path& path, const Catalog& catalog);
Catalog readCatalog(const std::filesystem::path& path);
// Fills setsWithPredicate and subjectsInSets from characteristicSets.
void indexCharacteristicSets(Catalog& catalog);

}  // namespace gsparql
