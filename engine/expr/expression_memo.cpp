#include "engine/expr/expression_memo.h"

namespace gsparql::engine::expr {

ExpressionMemo::Part& ExpressionMemo::part(const void* part) {
  for (auto& [at, table] : parts_) {
    if (at == part) return table;
  }
  return parts_.emplace_back(part, Part()).second;
}

}  // namespace gsparql::engine::expr
