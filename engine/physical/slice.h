#pragma once
// OFFSET and LIMIT (section 18.5, Slice). Stops pulling its input once the
// limit is reached, so the work below ends early too.
#include <optional>

#include "engine/physical/operator.h"

namespace gsparql::engine {

class Slice final : public Operator {
 public:
  Slice(OperatorPtr child, uint64_t offset, std::optional<uint64_t> limit);
  std::string describe() const override;
  std::vector<const Operator*> children() const override { return {child_.get()}; }
  void readAtMost(uint64_t rows) override;

 private:
  void openImpl(ExecutionContext& context) override;
  std::optional<Table> nextImpl(ExecutionContext& context) override;

  OperatorPtr child_;
  uint64_t offset_;
  std::optional<uint64_t> limit_;
  uint64_t skipped_ = 0, emitted_ = 0;
};

}  // namespace gsparql::engine
