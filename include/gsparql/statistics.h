#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "gsparql/export.h"

namespace gsparql {

struct PredicateStatistics {
  uint64_t triples = 0;
  uint32_t distinctSubjects = 0;
  uint32_t distinctObjects = 0;
  uint32_t maxOutDegree = 0;
  uint32_t maxInDegree = 0;
  friend bool operator==(const PredicateStatistics&, const PredicateStatistics&) = default;
};

struct NamedPredicateStatistics {
  std::string predicate;  // N-Triples form, e.g. <http://xmlns.com/foaf/0.1/name>
  PredicateStatistics statistics;
  std::string graph;  // the named graph these triples are in; empty: the default graph
};

struct DatabaseStatistics {
  uint64_t generation = 0;
  uint64_t triples = 0;
  uint64_t terms = 0;  // distinct subjects and objects
  uint64_t namedGraphs = 0;
  uint32_t deltaFiles = 0;  // small updates read with the generation (docs/storage.md, "Delta")
  std::vector<NamedPredicateStatistics> predicates;  // by predicate id: a predicate of one graph
};

// "generation 4", or "generation 4 + delta file 2": a snapshot of the database.
GSPARQL_API std::string snapshotName(uint64_t generation, uint32_t deltaFiles);

}  // namespace gsparql
