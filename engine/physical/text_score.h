#pragma once
// The score of a text search (`(?s ?score) text:query ...`,
// planner/text_pattern.h): one more column, each row's score looked up by
// the literal the search matched in that row, as an xsd:float as Jena gives
// it. The scores come with the plan: the search ran while planning.
#include <unordered_map>
#include <vector>

#include "engine/physical/operator.h"

namespace gsparql::engine {

class TextScore final : public Operator {
 public:
  // `literals` ascending, `scores` of each.
  TextScore(OperatorPtr child, const std::string& literal, const std::string& score, std::vector<uint32_t> literals,
            std::vector<double> scores);
  std::string describe() const override;
  std::vector<const Operator*> children() const override { return {child_.get()}; }
  void readAtMost(uint64_t rows) override { child_->readAtMost(rows); }

 private:
  void openImpl(ExecutionContext& context) override;
  std::optional<Table> nextImpl(ExecutionContext& context) override;
  ValueId scoreOf(ValueId literal, ExecutionContext& context);

  OperatorPtr child_;
  size_t literalColumn_;
  std::vector<uint32_t> literals_;
  std::vector<double> scores_;
  std::unordered_map<ValueId, ValueId> scoreIds_;  // per literal, made once a run
};

}  // namespace gsparql::engine
