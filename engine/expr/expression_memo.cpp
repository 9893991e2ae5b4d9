#include "engine/expr/expression_memo.h"

namespace gsparql::engine::expr {

const ExpressionMemo::Result* ExpressionMemo::Part::find(uint64_t key) {
  // A full table whose terms came back less than once each on average is not
  // worth its lookups: the variable's terms are mostly distinct.
  if (results_.size() >= kMaxEntries && hits_ < results_.size()) return nullptr;
  const auto it = results_.find(key);
  if (it == results_.end()) return nullptr;
  ++hits_;
  return &it->second;
}

const ExpressionMemo::Result* ExpressionMemo::Part::remember(uint64_t key, const Result& value) {
  if (results_.size() >= kMaxEntries) return nullptr;
  return &results_.try_emplace(key, value).first->second;
}

ExpressionMemo::Part& ExpressionMemo::part(const void* part) {
  for (auto& [at, table] : parts_) {
    if (at == part) return table;
  }
  return parts_.emplace_back(part, Part()).second;
}

}  // namespace gsparql::engine::expr
