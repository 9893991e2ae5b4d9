#include "engine/query/term_decoder.h"

#include <algorithm>

namespace gsparql::engine {

void TermDecoder::prefetch(size_t begin, size_t end) {
  std::vector<ValueId> ids;
  std::vector<uint32_t> vertices;
  for (const Column& column : rows_.columns) {
    if (column.holdsOnlyVertices()) {
      if (terms_.readsVerticesInPlace()) continue;
      const auto cells = column.vertices().subspan(begin, end - begin);
      vertices.insert(vertices.end(), cells.begin(), cells.end());
    } else {
      for (size_t r = begin; r < end; ++r) ids.push_back(column[r]);
    }
  }
  terms_.prefetch(ids, vertices);
}

// Column by column: a column of vertices is decoded without looking at id
// spaces. Results hit the terms at random: each cell's entry is prefetched
// kAhead cells before it is read, and its text as soon as its place is
// known, so that the cache misses of many cells overlap.
constexpr size_t kAhead = 16;

void TermDecoder::decode(size_t begin, size_t end, std::vector<std::optional<std::string_view>>& cells) {
  prefetch(begin, end);
  const size_t width = rows_.width();
  cells.assign((end - begin) * width, std::nullopt);
  for (size_t c = 0; c < width; ++c) {
    const Column& column = rows_.columns[c];
    if (column.holdsOnlyVertices()) {
      const auto vertices = column.vertices();
      for (size_t r = begin; r < end; ++r) {
        if (r + kAhead < end) terms_.prefetchVertex(vertices[r + kAhead]);
        const std::string_view term = terms_.vertexTerm(vertices[r]);
        TermCodec::prefetchText(term);
        cells[(r - begin) * width + c] = term;
      }
      continue;
    }
    for (size_t r = begin; r < end; ++r) {
      if (isBound(column[r])) cells[(r - begin) * width + c] = terms_.term(column[r]);
    }
  }
}

}  // namespace gsparql::engine
