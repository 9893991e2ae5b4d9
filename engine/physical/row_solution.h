#pragma once
// One row of a table as an expression sees it: slot i is column i, decoded
// to its term through the query's codec (which caches every term it decodes);
// its id is the key by which expressions memoize (expr::ExpressionMemo).
#include "engine/expr/expression.h"
#include "engine/physical/table.h"
#include "engine/value/term_codec.h"

namespace gsparql::engine {

class RowSolution final : public expr::Solution {
 public:
  RowSolution(const Table& table, TermCodec& terms) : table_(table), terms_(terms) {}
  void moveTo(size_t row) { row_ = row; }
  std::optional<std::string_view> term(size_t slot) const override {
    const ValueId id = table_.at(row_, slot);
    if (!isBound(id)) return std::nullopt;
    return terms_.term(id);
  }
  // Value ids: one term each for the whole query.
  std::optional<uint64_t> key(size_t slot) const override { return table_.at(row_, slot); }

 private:
  const Table& table_;
  TermCodec& terms_;
  size_t row_ = 0;
};

// A result of an expression as a value id (an error leaves the cell unbound).
inline ValueId valueOf(const expr::Result& result, TermCodec& terms) {
  return result ? terms.idOf(*result) : kUndefined;
}

}  // namespace gsparql::engine
