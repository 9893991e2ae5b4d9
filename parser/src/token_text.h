#pragma once
// A token's text, as the parser's stages read it.
#include <Token.h>

#include <algorithm>
#include <string>
#include <string_view>

namespace gsparql::sparql {

// Sliced from the query where it is all ASCII (the stream's code point
// indexes are then byte offsets); else ANTLR's, which converts each token
// from UTF-32 (through a stringstream for a rule's text).
class TokenText {
 public:
  explicit TokenText(std::string_view query)
      : query_(query),
        ascii_(std::all_of(query.begin(), query.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; })) {}

  std::string operator()(antlr4::Token* token) const {
    const size_t start = token->getStartIndex(), stop = token->getStopIndex();
    if (!ascii_ || token->getType() == antlr4::Token::EOF || stop < start || stop >= query_.size()) {
      return token->getText();
    }
    return std::string(query_.substr(start, stop - start + 1));
  }

 private:
  std::string_view query_;
  bool ascii_;
};

}  // namespace gsparql::sparql
