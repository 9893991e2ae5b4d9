#pragma once
// What the engine evaluates today, read off the algebra: one BGP under the
// solution modifiers (ORDER BY, projection, DISTINCT/REDUCED, OFFSET/LIMIT),
// ASK, or a COUNT over the BGP. Anything else is rejected with the feature's
// name and position, before any work is done.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "parser/algebra.h"

namespace gsparql::engine {

struct SortKey {
  std::string variable;
  bool descending = false;
};

struct CountAggregate {
  std::string resultVariable;           // ?c in (COUNT(...) AS ?c)
  std::optional<std::string> argument;  // COUNT(?x); none for COUNT(*)
  bool distinct = false;
};

struct QueryShape {
  bool ask = false;
  std::vector<sparql::TriplePattern> triples;  // the one BGP
  std::vector<std::string> projection;         // SELECT variables, in order
  std::vector<SortKey> order;
  bool distinct = false;                       // DISTINCT or REDUCED
  uint64_t offset = 0;
  std::optional<uint64_t> limit;
  std::optional<CountAggregate> count;
};

// Throws QueryError naming the first unsupported construct and its position.
QueryShape shapeOf(const sparql::Query& query);

}  // namespace gsparql::engine
