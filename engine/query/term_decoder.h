#pragma once
// Turns result ids into terms, a batch of rows at a time: the ids of a batch
// not decoded yet are looked up in one dictionary MultiGet (through the
// query's codec, which remembers them for the batches that follow).
#include <optional>
#include <string_view>
#include <vector>

#include "engine/physical/table.h"
#include "engine/value/term_codec.h"

namespace gsparql::engine {

class TermDecoder {
 public:
  TermDecoder(TermCodec& terms, const Table& rows) : terms_(terms), rows_(rows) {
    terms.expectDecoding(rows.rows * rows.width());
  }

  // Cells of rows [begin, end), row-major, nullopt for unbound.
  void decode(size_t begin, size_t end, std::vector<std::optional<std::string_view>>& cells);

 private:
  void prefetch(size_t begin, size_t end);

  TermCodec& terms_;
  const Table& rows_;
};

}  // namespace gsparql::engine
