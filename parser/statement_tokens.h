#pragma once
// SPARQL text as the parser's tokenizer reads it, for a reader of text that
// may not be finished yet: the REPL, which must know where a statement ends
// before it parses it. White space and comments are no tokens.
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace gsparql::sparql {

enum class TokenKind {
  Open,        // { ( [
  Close,       // } ) ]
  Semicolon,
  String,      // a string literal, long or short
  Iri,         // <...>
  Prefix,      // the keyword PREFIX, in any case
  Base,        // the keyword BASE, in any case
  PrefixName,  // "ex:" as PREFIX declares it
  Other,       // any other token, or a character that starts none
};

struct TextToken {
  TokenKind kind = TokenKind::Other;
  size_t begin = 0;  // byte offsets into the text
  size_t end = 0;
};

struct TextTokens {
  std::vector<TextToken> tokens;
  // Where a long string (""" or ''') starts that the text does not close
  // yet: the text goes on after it, and none of it is read as tokens.
  std::optional<size_t> unfinishedLongString;
};

TextTokens readTokens(std::string_view text);

}  // namespace gsparql::sparql
