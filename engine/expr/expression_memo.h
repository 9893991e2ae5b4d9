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

// Values by the key of a term (Solution::key), or by a term itself, bounded:
// at most kMaxEntries (a few MB), and once the first kTrialEntries keys came
// back less than once each on average, neither kept nor consulted any more:
// the terms are then mostly distinct (titles, labels), and keeping them cost
// about 100 ns a row (WatDiv F2: 25,000 distinct titles).
template <class Value, class Key = uint64_t>
class KeyedValues {
 public:
  static constexpr size_t kMaxEntries = size_t{1} << 14;
  static constexpr size_t kTrialEntries = 1024;

  // The value kept for `key`, nullptr when there is none.
  Value* find(const Key& key) {
    if (!worthIt()) return nullptr;
    const auto it = values_.find(key);
    if (it == values_.end()) return nullptr;
    ++hits_;
    return &it->second;
  }
  // Keeps `value` for `key` while there is room: the value kept, or nullptr.
  Value* remember(const Key& key, const Value& value) {
    if (values_.size() >= kMaxEntries || !worthIt()) return nullptr;
    return &values_.try_emplace(key, value).first->second;
  }

 private:
  bool worthIt() const { return values_.size() < kTrialEntries || hits_ >= values_.size(); }

  std::unordered_map<Key, Value> values_;
  uint64_t hits_ = 0;
};

class ExpressionMemo {
 public:
  using Result = std::optional<std::string>;  // as expression.h's
  static constexpr size_t kMaxEntries = KeyedValues<Result>::kMaxEntries;
  // The results of one part.
  using Part = KeyedValues<Result>;

  // The table of the part at `part` (a node of a compiled expression),
  // created on its first use; it stays where it is as others are added.
  Part& part(const void* part);

 private:
  // Few (one per memoized part of the operator's expressions): searched in order.
  std::deque<std::pair<const void*, Part>> parts_;
};

}  // namespace gsparql::engine::expr
