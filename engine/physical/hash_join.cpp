#include "engine/physical/hash_join.h"

namespace gsparql::engine {

HashJoin::HashJoin(OperatorPtr left, OperatorPtr right, double rows, double cost)
    : BuildProbe(std::move(left), std::move(right), true, rows, cost) {}

std::string HashJoin::describe() const { return "HashJoin " + sharedVariables(); }

void HashJoin::probe(const Table& left, size_t row, std::span<const ValueId> key, Table& out,
                     ExecutionContext& context) {
  index().forEachCompatible(key, [&](uint32_t r) {
    visited();
    appendMergedRow(left, row, right(), r, rightColumnOfOutput(), out);
  });
}

}  // namespace gsparql::engine
