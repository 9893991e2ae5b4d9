#pragma once
#include "engine/query/query_runner.h"
#include "engine/query/term_decoder.h"
#include "gsparql/query.h"
#include "storage/graph_store.h"

namespace gsparql {

class QueryResult::Impl {
 public:
  engine::QueryOutcome outcome;
  const GraphStore* store = nullptr;
  QueryTimings timings;
  std::vector<std::pair<std::string, std::string>> prefixes;  // of the query, for Turtle and tables
};

}  // namespace gsparql
