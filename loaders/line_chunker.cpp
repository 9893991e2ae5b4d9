#include "loaders/line_chunker.h"

#include <algorithm>

#include "gsparql/error.h"
#include "loaders/statement_splitter.h"

namespace gsparql {

LineChunker::LineChunker(InputStream& input, std::string name, size_t chunkBytes)
    : input_(input), name_(std::move(name)), chunkBytes_(chunkBytes) {}

bool LineChunker::readInto(std::string& text, size_t bytes) {
  const size_t before = text.size();
  text.resize(before + bytes);
  size_t filled = 0;
  while (filled < bytes) {
    const size_t n = input_.read(text.data() + before + filled, bytes - filled);
    if (n == 0) break;
    filled += n;
  }
  text.resize(before + filled);
  return filled == bytes;
}

bool LineChunker::next(LineChunk& chunk) {
  chunk.text.swap(carry_);
  carry_.clear();
  if (!ended_ && chunk.text.size() < chunkBytes_) ended_ = !readInto(chunk.text, chunkBytes_ - chunk.text.size());
  // A piece ends at its last line end; a line longer than the piece grows it.
  size_t lineEnd;
  while ((lineEnd = chunk.text.rfind('\n')) == std::string::npos && !ended_) {
    if (chunk.text.size() > kMaxStatementBytes) {
      throw LoadError(name_ + ":" + std::to_string(nextLine_) + ":1: a line longer than " +
                      std::to_string(kMaxStatementBytes >> 20) + " MiB");
    }
    ended_ = !readInto(chunk.text, chunkBytes_);
  }
  // At the end of the input the last line needs no line end.
  if (lineEnd != std::string::npos && !ended_) {
    carry_.assign(chunk.text, lineEnd + 1);
    chunk.text.resize(lineEnd + 1);
  }
  chunk.firstLine = nextLine_;
  nextLine_ += static_cast<uint64_t>(std::count(chunk.text.begin(), chunk.text.end(), '\n'));
  return !chunk.text.empty();
}

}  // namespace gsparql
