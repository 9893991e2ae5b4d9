#pragma once
// Runs one parsed query: checks its shape, binds and plans its BGP, executes
// it on the chosen executor and applies the solution modifiers, all on ids.
#include <string>

#include "engine/executor.h"
#include "engine/join_orderer.h"
#include "engine/query_outcome.h"
#include "parser/algebra.h"

namespace gsparql {
class GraphStore;
}

namespace gsparql::engine {

QueryOutcome runQuery(const sparql::Query& query, const GraphStore& store, Executor& executor,
                      const JoinOrderer& orderer, const ExecutionOptions& options);

// The plan with estimated and actual rows per step, for --explain.
std::string explainPlan(const QueryOutcome& outcome, const GraphStore& store);

}  // namespace gsparql::engine
