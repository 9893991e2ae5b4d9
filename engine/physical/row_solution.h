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
  bool bound(size_t slot) const override { return isBound(table_.at(row_, slot)); }
  // Value ids: one term each for the whole query.
  std::optional<uint64_t> key(size_t slot) const override { return table_.at(row_, slot); }
  // Starts loading the terms of `slots` that term() will read on the rows
  // ahead of `row` (below `end`), where terms are read in place: rows of
  // mostly distinct terms (names, e-mails) miss the cache on every read, and
  // the misses of several rows then overlap, as in the results' decoder.
  // Their entries 16 rows ahead, their text 8.
  void prefetchAhead(size_t row, size_t end, const std::vector<size_t>& slots) const {
    if (!terms_.readsVerticesInPlace()) return;
    auto isVertex = [](ValueId id) { return spaceOf(id) == ValueSpace::Vertex; };
    for (const size_t slot : slots) {
      if (row + 16 < end && isVertex(table_.at(row + 16, slot))) terms_.prefetchVertex(indexOf(table_.at(row + 16, slot)));
      if (row + 8 < end && isVertex(table_.at(row + 8, slot))) {
        TermCodec::prefetchText(terms_.vertexTerm(indexOf(table_.at(row + 8, slot))));
      }
    }
  }

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
