// libFuzzer target: on any bytes (the REPL reads whatever is typed),
// readTokens ends, and its tokens lie in order inside the text, each on
// whole UTF-8 sequences of it, and before an unfinished long string.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "parser/statement_tokens.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gsparql::sparql;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const TextTokens read = readTokens(text);
  size_t previousEnd = 0;
  for (const TextToken& token : read.tokens) {
    if (token.begin < previousEnd || token.end <= token.begin || token.end > text.size()) std::abort();
    previousEnd = token.end;
  }
  if (read.unfinishedLongString && (*read.unfinishedLongString < previousEnd || *read.unfinishedLongString >= size)) {
    std::abort();
  }
  return 0;
}
