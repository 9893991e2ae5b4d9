#pragma once
// Runs one parsed query: builds its logical plan, plans the physical
// operators, runs them on the chosen BGP executor and shapes the result by
// the query form (SELECT rows, ASK boolean, CONSTRUCT and DESCRIBE triples).
#include <string>

#include "engine/bgp/executor.h"
#include "engine/optimizer/join_orderer.h"
#include "engine/query/query_outcome.h"
#include "parser/algebra.h"

namespace gsparql {
class GraphStore;
}

namespace gsparql::engine {

// Takes a SELECT query's rows batch by batch as the operator tree produces
// them, instead of the outcome keeping them: begin() with the variables
// first; rows() returns false to stop the query (its reader went away).
class RowSink {
 public:
  virtual ~RowSink() = default;
  virtual void begin(const std::vector<std::string>& variables) = 0;
  virtual bool rows(const Table& batch, TermCodec& terms) = 0;
};

// What a query is run with: how its operators and BGPs run, and the one
// setting of its planning that is not in its text.
struct QueryRequest {
  QueryRun run;
  // Without FROM, the default graph is the union of the named graphs
  // (engine/planner/query_dataset.h).
  bool unionDefaultGraph = false;
  // RDFS entailment (engine/logical/rdfs_entailment.h), the schema read from
  // the query's default graph.
  bool rdfsEntailment = false;
};

// With a sink, SELECT rows go to it (and the outcome's rows stay empty);
// the other forms need all their solutions and ignore it.
QueryOutcome runQuery(const sparql::Query& query, const GraphStore& store, Executor& executor,
                      const JoinOrderer& orderer, const QueryRequest& request, RowSink* sink = nullptr);

// The operator tree with estimated and actual rows and the time of each
// operator, for --explain.
std::string explainPlan(const QueryOutcome& outcome, const GraphStore& store);

// An operator's or a BGP join step's estimated and actual rows.
struct RowEstimate {
  std::string what;
  double estimated = 0;
  uint64_t actual = 0;
};
// Those of every operator that ran and of every step its BGP executors ran,
// in EXPLAIN's order: what a cardinality estimator is judged by.
std::vector<RowEstimate> rowEstimates(const QueryOutcome& outcome);

}  // namespace gsparql::engine
