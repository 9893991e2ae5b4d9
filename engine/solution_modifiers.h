#pragma once
// ORDER BY, projection, DISTINCT, OFFSET/LIMIT and COUNT over id tables.
#include <optional>
#include <string>
#include <vector>

#include "engine/query_outcome.h"
#include "engine/query_shape.h"

namespace gsparql {
class Dictionary;
}

namespace gsparql::engine {

// All named columns of a BGP's table: its variables (blank nodes included,
// named "_:label") and predicate variables.
QueryOutcome bgpOutcome(const BoundBgp& bgp, IdTable table);

void orderBy(QueryOutcome& outcome, const std::vector<SortKey>& keys, const Dictionary& dictionary);
QueryOutcome project(const QueryOutcome& outcome, const std::vector<std::string>& variables);
void keepFirstOfEachRow(QueryOutcome& outcome);  // DISTINCT, order preserved
void slice(QueryOutcome& outcome, uint64_t offset, std::optional<uint64_t> limit);
QueryOutcome count(const QueryOutcome& outcome, const CountAggregate& aggregate);

}  // namespace gsparql::engine
