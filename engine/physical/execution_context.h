#pragma once
// What every operator reads while it runs: the store, the query's codec of
// terms, the BGP executor chosen for the query and how the query runs.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/bgp/executor.h"
#include "engine/expr/expression.h"
#include "engine/value/term_codec.h"
#include "gsparql/query.h"

namespace gsparql {
class GraphStore;
}

namespace gsparql::engine {

// How a query runs: its limits, for every operator, and what each of its
// BGP calls asks besides the columns and rows its caller reads.
struct QueryRun {
  QueryLimits limits;
  bool injective = false;   // --semantics iso
  bool streamRows = false;  // its result is written as it comes: BGPs hand out rows a chunk at a time
  bool stepTimes = false;   // --explain: fused GPU steps timed one by one
  ServiceAccess service;    // the endpoints SERVICE may ask

  // A BGP's call: `columns` (nullopt: all) and at most `rowLimit` rows.
  BgpCall bgpCall(std::optional<std::vector<uint32_t>> columns, std::optional<uint64_t> rowLimit) const {
    return {limits, injective, std::move(columns), rowLimit, streamRows, stepTimes};
  }
};

// EXISTS { pattern } for one solution whose slots hold `variables`; set by
// the planner, which plans the pattern with the solution's values substituted.
using ExistsCallback = std::function<bool(const sparql::Op& pattern, const std::vector<std::string>& variables,
                                       const expr::Solution& solution)>;

struct ExecutionContext {
  const GraphStore& store;
  TermCodec& terms;
  Executor& bgpExecutor;
  QueryRun run;
  ExistsCallback exists;
  std::string now;      // NOW(): one xsd:dateTime for the whole query
  std::string baseIri;  // the query's BASE, for IRI()

  // What expressions over rows with `variables` need (EXISTS, BNODE(), NOW()).
  expr::Environment environmentFor(const std::vector<std::string>& variables) {
    expr::Environment environment;
    environment.exists = [this, &variables](const sparql::Op& pattern, const expr::Solution& solution) {
      return exists(pattern, variables, solution);
    };
    environment.freshBlankNode = [this] { return std::string(terms.term(terms.freshBlankNode())); };
    environment.now = now;
    environment.baseIri = baseIri;
    return environment;
  }
};

}  // namespace gsparql::engine
