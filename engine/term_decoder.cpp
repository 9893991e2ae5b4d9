#include "engine/term_decoder.h"

namespace gsparql::engine {

void TermDecoder::decode(size_t begin, size_t end, std::vector<std::optional<std::string_view>>& cells) {
  for (const auto& column : rows_.columns) {
    terms_.prefetch(std::span<const ValueId>(column.data() + begin, end - begin));
  }
  cells.clear();
  for (size_t r = begin; r < end; ++r) {
    for (const auto& column : rows_.columns) {
      cells.push_back(isBound(column[r]) ? std::optional<std::string_view>(terms_.term(column[r])) : std::nullopt);
    }
  }
}

}  // namespace gsparql::engine
