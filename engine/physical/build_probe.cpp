#include "engine/physical/build_probe.h"

#include "gsparql/error.h"

namespace gsparql::engine {

BuildProbe::BuildProbe(OperatorPtr left, OperatorPtr right, bool keepsRightColumns, double rows, double cost,
                       bool existenceOnly)
    : Operator(keepsRightColumns ? mergedVariables(left->variables(), right->variables()) : left->variables(), rows,
               cost),
      left_(std::move(left)), right_(std::move(right)), shared_(sharedColumns(left_->variables(), right_->variables())),
      existenceOnly_(existenceOnly) {
  for (const auto& v : variables()) rightOfOutput_.push_back(right_->columnOf(v));
}

std::string BuildProbe::sharedVariables() const {
  std::string names;
  for (size_t column : shared_.left) names += (names.empty() ? "?" : " ?") + left_->variables()[column];
  return names.empty() ? "no shared variable" : "on " + names;
}

void BuildProbe::openImpl(ExecutionContext& context) {
  stop_.emplace(context.run.limits);
  rightRows_ = Table();
  index_.reset();
  left_->open(context);
  leftBatch_.reset();
  leftRow_ = 0;
}

// Called when the left gives its first row. Sharing no variable, every
// right row is compatible with every left row, so an existence test needs
// one (`FILTER EXISTS { ?a :p ?b }` reads one row).
void BuildProbe::build(ExecutionContext& context) {
  rightRows_ = existenceOnly_ && shared_.right.empty() ? runToFirstRow(*right_, context) : runToEnd(*right_, context);
  index_.emplace(rightRows_, shared_.right);
}

std::optional<Table> BuildProbe::nextImpl(ExecutionContext& context) {
  Table out(variables().size());
  std::vector<ValueId> key(shared_.left.size());
  for (;;) {
    if (!leftBatch_ || leftRow_ >= leftBatch_->rows) {
      leftBatch_ = left_->next(context);
      leftRow_ = 0;
      if (!leftBatch_) return out.rows > 0 ? std::optional<Table>(std::move(out)) : std::nullopt;
      if (!index_ && leftBatch_->rows > 0) build(context);
    }
    for (; leftRow_ < leftBatch_->rows && out.rows < kBatchRows; ++leftRow_) {
      for (size_t k = 0; k < key.size(); ++k) key[k] = leftBatch_->at(leftRow_, shared_.left[k]);
      visited();
      probe(*leftBatch_, leftRow_, key, out, context);
    }
    if (out.rows >= kBatchRows) return out;
  }
}

}  // namespace gsparql::engine
