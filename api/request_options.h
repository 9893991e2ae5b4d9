#pragma once
// What the public options of a query or an update mean to the engine: the
// parsed request with the options' dataset in place of its own, and the
// limits it runs under (timeout from its start, memory budget, cancel).
#include <chrono>
#include <memory>
#include <string_view>

#include "engine/query/query_runner.h"
#include "gsparql/query.h"
#include "parser/algebra.h"
#include "parser/update.h"

namespace gsparql {

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start);

// Throw QueryError for a syntax error (with line and column) or a dataset
// that is not absolute IRIs. Queries come from a cache of recent texts
// (api/parsed_query_cache.h).
std::shared_ptr<const sparql::Query> parseQuery(std::string_view text, const QueryOptions& options);
sparql::UpdateRequest parseUpdateRequest(std::string_view text, const QueryOptions& options);

engine::QueryRequest requestFrom(const QueryOptions& options, Clock::time_point start);

}  // namespace gsparql
