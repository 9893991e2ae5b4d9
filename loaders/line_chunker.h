#pragma once
// Cuts a line-based input (N-Triples, N-Quads: one statement a line) into
// pieces of about `chunkBytes` that end at a line end, so that the pieces
// can be parsed apart, on all cores.
#include <cstddef>
#include <cstdint>
#include <string>

#include "loaders/input_stream.h"

namespace gsparql {

struct LineChunk {
  std::string text;
  uint64_t firstLine = 1;  // in the whole input
};

class LineChunker {
 public:
  LineChunker(InputStream& input, std::string name, size_t chunkBytes);

  // The next piece; false at the end of the input. Throws LoadError for a
  // line too long to be a statement.
  bool next(LineChunk& chunk);

 private:
  // Appends up to `bytes` to `text`; false at the end of the input.
  bool readInto(std::string& text, size_t bytes);

  InputStream& input_;
  const std::string name_;
  const size_t chunkBytes_;
  std::string carry_;  // what followed the last line end of the previous piece
  uint64_t nextLine_ = 1;
  bool ended_ = false;
};

}  // namespace gsparql
