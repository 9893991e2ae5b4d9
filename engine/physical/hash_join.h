#pragma once
// Join of two group graph patterns (section 18.5, Join): every compatible
// pair of rows, merged. Without shared variables, the cartesian product.
#include "engine/physical/build_probe.h"

namespace gsparql::engine {

class HashJoin final : public BuildProbe {
 public:
  HashJoin(OperatorPtr left, OperatorPtr right, double rows, double cost);
  std::string describe() const override;

 private:
  void probe(const Table& left, size_t row, std::span<const ValueId> key, Table& out,
             ExecutionContext& context) override;
};

}  // namespace gsparql::engine
