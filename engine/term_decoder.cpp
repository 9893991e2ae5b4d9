#include "engine/term_decoder.h"

namespace gsparql::engine {

void TermDecoder::decode(size_t begin, size_t end, std::vector<std::optional<std::string_view>>& cells) {
  std::vector<ValueId> ids;
  ids.reserve((end - begin) * rows_.width());
  for (const auto& column : rows_.columns) {
    for (size_t r = begin; r < end; ++r) ids.push_back(column[r]);
  }
  terms_.prefetch(ids);
  cells.clear();
  for (size_t r = begin; r < end; ++r) {
    for (const auto& column : rows_.columns) {
      cells.push_back(isBound(column[r]) ? std::optional<std::string_view>(terms_.term(column[r])) : std::nullopt);
    }
  }
}

}  // namespace gsparql::engine
