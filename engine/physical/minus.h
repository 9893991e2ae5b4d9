#pragma once
// MINUS (section 18.5, Minus): the left rows for which no right row is
// compatible while sharing at least one bound variable.
#include "engine/physical/build_probe.h"

namespace gsparql::engine {

class Minus final : public BuildProbe {
 public:
  Minus(OperatorPtr left, OperatorPtr right, double rows, double cost);
  std::string describe() const override;

 private:
  void probe(const Table& left, size_t row, std::span<const ValueId> key, Table& out,
             ExecutionContext& context) override;
};

}  // namespace gsparql::engine
