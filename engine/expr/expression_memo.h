#pragma once
// Results of the parts of expressions that read the solution through one
// variable only (xsd:integer(?price) > 900, STRLEN(?name), REGEX(?x, "a")),
// by the key of that variable's term (Solution::key): such a part is
// evaluated once per distinct term, not once per row, since a query's rows
// repeat few terms (issue 44: a cast filter cost about 1 us a row on decoded
// strings for a few hundred distinct prices). Which parts qualify is decided
// when an expression is compiled (expression.cpp); this is a run's state,
// kept in the Environment of the operator that evaluates them.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>

namespace gsparql::engine::expr {

class ExpressionMemo {
 public:
  using Result = std::optional<std::string>;  // as expression.h's
  // A part's table holds at most this many terms, so that memory stays
  // bounded (a few MB a part); other terms are evaluated on every row.
  static constexpr size_t kMaxEntries = size_t{1} << 14;

  // The results of one part.
  class Part {
   public:
    // The remembered result for `key`, nullptr when there is none.
    const Result* find(uint64_t key);
    // Remembers `value` for `key` while there is room: the value kept, or nullptr.
    const Result* remember(uint64_t key, const Result& value);

   private:
    std::unordered_map<uint64_t, Result> results_;
    uint64_t hits_ = 0;
  };

  // The table of the part at `part` (a node of a compiled expression),
  // created on its first use; it stays where it is as others are added.
  Part& part(const void* part);

 private:
  // Few (one per memoized part of the operator's expressions): searched in order.
  std::deque<std::pair<const void*, Part>> parts_;
};

}  // namespace gsparql::engine::expr
