#pragma once
// The engine's answer to one query, still as ids, and everything --explain
// and --time report about how it was obtained.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/bound_bgp.h"
#include "engine/executor.h"
#include "engine/id_table.h"
#include "engine/plan.h"

namespace gsparql::engine {

enum class ColumnKind : uint8_t {
  Vertex,     // vertex id
  Predicate,  // predicate id
  Computed,   // index into QueryOutcome::computed (COUNT results)
  Unbound,    // a projected variable the pattern never binds
};

struct QueryOutcome {
  bool ask = false;
  bool askValue = false;
  std::vector<std::string> variables;
  std::vector<ColumnKind> kinds;  // one per variable
  IdTable rows;                   // one column per variable
  std::vector<std::string> computed;

  // For --explain and --time.
  std::string executor;
  BoundBgp bgp;
  BgpPlan plan;
  ExecutionProfile profile;
  uint64_t matches = 0;  // rows of the BGP before the solution modifiers
  double planMilliseconds = 0;
  double executeMilliseconds = 0;
  double modifiersMilliseconds = 0;
};

}  // namespace gsparql::engine
