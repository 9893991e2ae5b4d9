#pragma once
// What a generation holds, in numbers: totals and per-predicate statistics
// (used by `gsparql info` and by the optimizer).
#include <cstdint>
#include <filesystem>
#include <vector>

#include "gsparql/statistics.h"

namespace gsparql {

struct Catalog {
  uint64_t generation = 0;
  // Input files loaded so far; each gets its own blank-node scope.
  uint64_t inputFiles = 0;
  uint64_t vertexCount = 0;
  uint64_t tripleCount = 0;
  std::vector<PredicateStatistics> predicates;  // indexed by predicate id
  friend bool operator==(const Catalog&, const Catalog&) = default;
};

inline constexpr const char* kCatalogFile = "catalog";
// Text, one fact per line, ending with a checksum line.
void writeCatalog(const std::filesystem::path& path, const Catalog& catalog);
Catalog readCatalog(const std::filesystem::path& path);

}  // namespace gsparql
