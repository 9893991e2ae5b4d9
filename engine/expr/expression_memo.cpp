#include "engine/expr/expression_memo.h"

namespace gsparql::engine::expr {
namespace {

// Terms a part remembers before it must show that they come back.
constexpr size_t kTrialEntries = 1024;

// Once a part has seen kTrialEntries terms, it is worth its lookups and its
// copies only while its terms came back at least once each on average;
// otherwise they are mostly distinct (titles, labels), and remembering
// them cost about 100 ns a row (WatDiv F2: 25,000 distinct titles).
bool worthIt(size_t entries, uint64_t hits) { return entries < kTrialEntries || hits >= entries; }

}  // namespace

const ExpressionMemo::Result* ExpressionMemo::Part::find(uint64_t key) {
  if (!worthIt(results_.size(), hits_)) return nullptr;
  const auto it = results_.find(key);
  if (it == results_.end()) return nullptr;
  ++hits_;
  return &it->second;
}

const ExpressionMemo::Result* ExpressionMemo::Part::remember(uint64_t key, const Result& value) {
  if (results_.size() >= kMaxEntries || !worthIt(results_.size(), hits_)) return nullptr;
  return &results_.try_emplace(key, value).first->second;
}

ExpressionMemo::Part& ExpressionMemo::part(const void* part) {
  for (auto& [at, table] : parts_) {
    if (at == part) return table;
  }
  return parts_.emplace_back(part, Part()).second;
}

}  // namespace gsparql::engine::expr
