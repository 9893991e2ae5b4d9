#pragma once
// VALUES (section 18.5, ToMultiSet of the data block): constant rows, UNDEF
// as unbound cells.
#include "engine/physical/operator.h"
#include "parser/algebra.h"

namespace gsparql::engine {

class ValuesScan final : public Operator {
 public:
  explicit ValuesScan(sparql::Table table);
  std::string describe() const override;
  std::vector<const Operator*> children() const override { return {}; }

 private:
  void openImpl(ExecutionContext& context) override;
  std::optional<Table> nextImpl(ExecutionContext& context) override;

  sparql::Table data_;
  BatchCursor cursor_;
};

}  // namespace gsparql::engine
