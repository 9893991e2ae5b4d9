#pragma once
// Runs one parsed query: builds its logical plan, plans the physical
// operators, runs them on the chosen BGP executor and shapes the result by
// the query form (SELECT rows, ASK boolean, CONSTRUCT and DESCRIBE triples).
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

// The operator tree with estimated and actual rows and the time of each
// operator, for --explain.
std::string explainPlan(const QueryOutcome& outcome, const GraphStore& store);

}  // namespace gsparql::engine
