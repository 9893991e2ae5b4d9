#pragma once
// Turns result ids into terms, a batch of rows at a time: the distinct ids of
// a batch are looked up in one dictionary MultiGet and remembered for the
// batches that follow.
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
  TermDecoder(const Dictionary& dictionary, const QueryOutcome& outcome)
      : dictionary_(dictionary), outcome_(outcome) {}

  // Cells of rows [begin, end), row-major, nullopt for unbound.
  void decode(size_t begin, size_t end, std::vector<std::optional<std::string_view>>& cells);
  // The terms of one column for all rows (used to sort).
  std::vector<std::optional<std::string_view>> column(uint32_t c);

 private:
  std::optional<std::string_view> cell(size_t row, uint32_t column) const;
  void fetch(size_t begin, size_t end, const std::vector<uint32_t>& columns);

  const Dictionary& dictionary_;
  const QueryOutcome& outcome_;
  std::unordered_map<uint32_t, std::string> vertices_, predicates_;
};

}  // namespace gsparql::engine
