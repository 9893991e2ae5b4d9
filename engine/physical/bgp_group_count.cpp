#include "engine/physical/bgp_group_count.h"

#include <unordered_map>

#include "engine/expr/terms.h"

namespace gsparql::engine {
namespace {

std::vector<std::string> keyThenCounts(const std::string& key, std::vector<std::string> counts) {
  counts.insert(counts.begin(), key);
  return counts;
}

}  // namespace

BgpGroupCount::BgpGroupCount(BoundBgp bgp, BgpPlan plan, uint32_t keyColumn, const std::string& key,
                             std::vector<std::string> countVariables)
    : BgpLeaf(std::move(bgp), std::move(plan), keyThenCounts(key, std::move(countVariables)), Output::Groups),
      keyColumn_(keyColumn) {}

std::string BgpGroupCount::describe() const {
  std::string text = "BgpGroupCount by ?" + bgp_.vertices[keyColumn_].name + ", " +
                     std::to_string(bgp_.edges.size()) + " triple pattern(s)";
  text += whereItRan();
  return text;
}

void BgpGroupCount::openImpl(ExecutionContext& context) {
  profile_ = {};
  executor_ = context.bgpExecutor.name();
  cursor_.reset(bgp_.hasAbsentConstant ? Table(variables().size()) : groups(context));
}

std::optional<Table> BgpGroupCount::nextImpl(ExecutionContext&) { return cursor_.next(); }

Table BgpGroupCount::groups(ExecutionContext& context) {
  const BgpCall call = context.run.bgpCall(std::nullopt, std::nullopt);
  const VertexCounts counts =
      context.bgpExecutor.countByVertex(plan_, bgp_, context.store, call, profile_, keyColumn_);
  Table groups(variables().size());
  groups.reserve(counts.size());
  std::unordered_map<uint64_t, ValueId> countTerms;  // groups share few counts: each numbered once
  StopCheck stop(context.run.limits);
  for (const VertexCount& count : counts) {
    stop();
    auto [term, added] = countTerms.try_emplace(count.rows, kUndefined);
    if (added) term->second = context.terms.idOf(expr::integerTerm(static_cast<long long>(count.rows)));
    groups.columns[0].push_back(context.terms.fromVertex(count.vertex));
    for (size_t c = 1; c < groups.width(); ++c) groups.columns[c].push_back(term->second);
    ++groups.rows;
  }
  return groups;
}

}  // namespace gsparql::engine
