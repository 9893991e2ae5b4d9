#include "engine/physical/exists_join.h"

namespace gsparql::engine {

ExistsJoin::ExistsJoin(OperatorPtr input, OperatorPtr pattern, bool negated, double rows, double cost)
    : BuildProbe(std::move(input), std::move(pattern), false, rows, cost, true), negated_(negated) {}

std::string ExistsJoin::describe() const {
  return (negated_ ? "AntiJoin (NOT EXISTS) " : "SemiJoin (EXISTS) ") + sharedVariables();
}

void ExistsJoin::probe(const Table& left, size_t row, std::span<const ValueId> key, Table& out, ExecutionContext&) {
  const bool found = index().anyCompatible(key, [&](uint32_t) {
    visited();
    return true;
  });
  if (found != negated_) out.appendRowOf(left, row);
}

}  // namespace gsparql::engine
