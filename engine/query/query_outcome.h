#pragma once
// The engine's answer to one query, still as ids, and everything --explain
// and --time report about how it was obtained.
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "engine/physical/operator.h"
#include "engine/physical/table.h"
#include "engine/value/term_codec.h"
#include "parser/algebra.h"

namespace gsparql::engine {

using Triple = std::array<ValueId, 3>;

struct QueryOutcome {
  sparql::Query::Form form = sparql::Query::Form::Select;
  bool askValue = false;               // ASK
  std::vector<std::string> variables;  // SELECT
  Table rows;                          // SELECT: one column per variable
  std::vector<Triple> triples;         // CONSTRUCT, DESCRIBE: a set of triples
  // Decodes the ids above; holds the terms the query made.
  std::shared_ptr<TermCodec> terms;

  // For --explain and --time.
  std::shared_ptr<Operator> plan;
  std::string executor;
  double planMilliseconds = 0;
  double executeMilliseconds = 0;

  bool isGraph() const {
    return form == sparql::Query::Form::Construct || form == sparql::Query::Form::Describe;
  }
};

}  // namespace gsparql::engine
