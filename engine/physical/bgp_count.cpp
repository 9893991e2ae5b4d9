#include "engine/physical/bgp_count.h"

#include "engine/expr/terms.h"

namespace gsparql::engine {

std::string BgpCount::describe() const {
  std::string text = "BgpCount" + (distinctColumn_ ? " of distinct ?" + bgp_.vertices[*distinctColumn_].name : "") +
                     ", " + std::to_string(bgp_.edges.size()) + " triple pattern(s)";
  text += whereItRan();
  return text;
}

void BgpCount::openImpl(ExecutionContext& context) {
  profile_ = {};
  executor_ = context.bgpExecutor.name();
  done_ = false;
}

std::optional<Table> BgpCount::nextImpl(ExecutionContext& context) {
  if (done_) return std::nullopt;
  done_ = true;
  Executor& executor = context.bgpExecutor;
  const BgpCall call = context.run.bgpCall(std::nullopt, std::nullopt);
  const uint64_t count =
      bgp_.hasAbsentConstant ? 0
      : distinctColumn_      ? executor.countDistinct(plan_, bgp_, context.store, call, profile_, *distinctColumn_)
                             : executor.count(plan_, bgp_, context.store, call, profile_);
  const ValueId value = context.terms.idOf(expr::integerTerm(static_cast<long long>(count)));
  Table row(variables().size());
  row.rows = 1;
  for (Column& column : row.columns) column.push_back(value);
  return row;
}

}  // namespace gsparql::engine
