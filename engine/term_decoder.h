#pragma once
// Turns result ids into terms, a batch of rows at a time: the distinct ids of
// a batch are looked up in one dictionary MultiGet and remembered for the
// batches that follow.
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/query_outcome.h"

namespace gsparql {
class Dictionary;
}

namespace gsparql::engine {

class TermDecoder {
 public:
  TermDecoder(const Dictionary& dictionary, const QueryOutcome& outcome);

  // Cells of rows [begin, end), row-major, nullopt for unbound.
  void decode(size_t begin, size_t end, std::vector<std::optional<std::string_view>>& cells);
  // The terms of one column for all rows (used to sort).
  std::vector<std::optional<std::string_view>> column(uint32_t c);

 private:
  // The terms of one id space seen so far. Large results index them by id in
  // a dense array (one load a cell); small ones in a hash map, so a query
  // with a few rows does not pay for an array as long as the dictionary.
  class Terms {
   public:
    void prepare(uint32_t maxId, size_t cells);
    const std::string* find(uint32_t id) const;
    void add(uint32_t id, std::string term);

   private:
    static constexpr uint32_t kAbsent = 0xFFFFFFFFu;
    std::vector<uint32_t> dense_;
    std::unordered_map<uint32_t, uint32_t> sparse_;
    std::deque<std::string> terms_;  // a deque: views stay valid as terms are added
  };

  std::optional<std::string_view> cell(size_t row, uint32_t column) const;
  void fetch(size_t begin, size_t end, const std::vector<uint32_t>& columns);
  Terms& termsOf(ColumnKind kind) { return kind == ColumnKind::Vertex ? vertices_ : predicates_; }

  const Dictionary& dictionary_;
  const QueryOutcome& outcome_;
  Terms vertices_, predicates_;
};

}  // namespace gsparql::engine
