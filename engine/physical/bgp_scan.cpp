#include "engine/physical/bgp_scan.h"

#include <cstdio>

#include "storage/graph_store.h"

namespace gsparql::engine {
namespace {

// A variable that a filter or VALUES replaced by a constant (it keeps its name).
bool fixedVertex(const BoundBgp& bgp, uint32_t column) {
  return column < bgp.vertices.size() && !bgp.vertices[column].isVariable && !bgp.vertices[column].name.empty();
}

}  // namespace

BgpScan::BgpScan(BoundBgp bgp, BgpPlan plan, std::vector<uint32_t> columns, std::vector<std::string> variables,
                 std::string limits)
    : BgpLeaf(std::move(bgp), std::move(plan), std::move(variables), Output::Rows), columns_(std::move(columns)),
      limits_(std::move(limits)) {
  for (uint32_t c : columns_) {
    if (!fixedVertex(bgp_, c)) executorColumns_.push_back(c);
  }
}

std::string BgpScan::describe() const {
  std::string text = "BgpScan, " + std::to_string(bgp_.edges.size()) + " triple pattern(s)";
  text += whereItRan();
  if (rowLimit_) text += ", stops at " + std::to_string(*rowLimit_) + " row(s)";
  if (!limits_.empty()) text += ", " + limits_;
  return text;
}

void BgpScan::openImpl(ExecutionContext& context) {
  profile_ = {};
  cursor_.reset();
  rows_ = IdColumns(static_cast<uint32_t>(executorColumns_.size()));
  call_ = context.run.bgpCall(executorColumns_, rowLimit_);
  executor_ = context.bgpExecutor.name();
  if (!bgp_.hasAbsentConstant) cursor_ = context.bgpExecutor.open(plan_, bgp_, context.store, call_, profile_);
}

// Each of the executor's non-empty batches becomes one batch, which the
// operators above take over without copying it again: the whole answer at
// once, or (BgpCall::streamRows) a chunk at a time.
std::optional<Table> BgpScan::nextImpl(ExecutionContext& context) {
  while (cursor_ && rows_.rows() == 0) {
    std::optional<IdColumns> chunk = cursor_->next();
    if (!chunk) break;
    rows_ = std::move(*chunk);
  }
  if (rows_.rows() == 0) return std::nullopt;
  Table batch = toValues(context);
  rows_ = IdColumns(static_cast<uint32_t>(executorColumns_.size()));  // handed out: free it
  return batch;
}

Table BgpScan::toValues(ExecutionContext& context) {
  Table out(columns_.size());
  out.rows = rows_.rows();
  uint32_t read = 0;  // the executor's next column
  for (size_t c = 0; c < columns_.size(); ++c) {
    Column& column = out.columns[c];
    if (fixedVertex(bgp_, columns_[c])) {
      column.assign(out.rows, context.terms.fromVertex(bgp_.vertices[columns_[c]].id));
    } else if (columns_[c] >= bgp_.vertices.size()) {  // a predicate variable
      column.reserve(out.rows);
      for (uint32_t predicate : rows_.column(read++)) column.push_back(context.terms.fromPredicate(predicate));
    } else {
      column = Column::ofVertices(std::move(rows_.column(read++)));
    }
  }
  return out;
}

}  // namespace gsparql::engine
