// libFuzzer target: on any valid UTF-8 text (what the parser lexes) the
// hand-written tokenizer gives ANTLR's generated lexer's tokens, positions
// and first error.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "parser/fuzz/token_streams.h"
#include "parser/src/lexical.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gsparql::sparql;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  if (lexical::invalidUtf8Offset(text) != std::string_view::npos) return 0;
  if (fuzz::antlrTokens(text) != fuzz::tokenizerTokens(text)) std::abort();
  return 0;
}
