#include "engine/physical/minus.h"

namespace gsparql::engine {

Minus::Minus(OperatorPtr left, OperatorPtr right, double rows, double cost)
    : BuildProbe(std::move(left), std::move(right), false, rows, cost) {}

std::string Minus::describe() const { return "Minus " + sharedVariables(); }

void Minus::probe(const Table& left, size_t row, std::span<const ValueId> key, Table& out,
                  ExecutionContext& context) {
  // Output columns are the left's; rightColumnOfOutput() names the shared ones.
  const auto& rightColumns = rightColumnOfOutput();
  auto sharesABoundVariable = [&](uint32_t r) {
    for (size_t c = 0; c < rightColumns.size(); ++c) {
      if (rightColumns[c] && isBound(left.at(row, c)) && isBound(right().at(r, *rightColumns[c]))) return true;
    }
    return false;
  };
  const bool removed = index().anyCompatible(key, [&](uint32_t r) {
    visited();
    return sharesABoundVariable(r);
  });
  if (!removed) out.appendRowOf(left, row);
}

}  // namespace gsparql::engine
