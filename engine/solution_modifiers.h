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

// A BGP column's name: its variable, "_:label" for a blank node, "" for a constant.
std::string columnName(const BoundBgp& bgp, uint32_t column);
// Names the columns of an executor's table, which holds `columns` of the BGP.
QueryOutcome bgpOutcome(const BoundBgp& bgp, IdTable table, const std::vector<uint32_t>& columns);

void orderBy(QueryOutcome& outcome, const std::vector<SortKey>& keys, const Dictionary& dictionary);
QueryOutcome project(QueryOutcome outcome, const std::vector<std::string>& variables);
void keepFirstOfEachRow(QueryOutcome& outcome);  // DISTINCT, order preserved
void slice(QueryOutcome& outcome, uint64_t offset, std::optional<uint64_t> limit);
QueryOutcome count(const QueryOutcome& outcome, const CountAggregate& aggregate);

}  // namespace gsparql::engine
