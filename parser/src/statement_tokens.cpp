#include "parser/statement_tokens.h"

#include "SparqlLexer.h"
#include "parser/src/tokenizer.h"
#include "rdf/term.h"

namespace gsparql::sparql {
namespace {

using L = gsparql_antlr::SparqlLexer;

TokenKind kindOf(size_t type) {
  static const size_t open[] = {literalTokenType("{"), literalTokenType("("), literalTokenType("[")};
  static const size_t close[] = {literalTokenType("}"), literalTokenType(")"), literalTokenType("]")};
  static const size_t semicolon = literalTokenType(";");
  for (size_t t : open) {
    if (type == t) return TokenKind::Open;
  }
  for (size_t t : close) {
    if (type == t) return TokenKind::Close;
  }
  switch (type) {
    case L::STRING_LITERAL1: case L::STRING_LITERAL2: case L::STRING_LITERAL_LONG1: case L::STRING_LITERAL_LONG2:
      return TokenKind::String;
    case L::IRIREF: return TokenKind::Iri;
    case L::PREFIX: return TokenKind::Prefix;
    case L::BASE: return TokenKind::Base;
    case L::PNAME_NS: return TokenKind::PrefixName;
    default: return type == semicolon ? TokenKind::Semicolon : TokenKind::Other;
  }
}


// The characters between two tokens that are neither white space nor a
// comment: those the tokenizer skipped, as ANTLR's lexer does, from where a
// token failed to one past the character that failed it ("x;" skips the
// ';'). Each is a token of its own, of the kind its character has alone, so
// that a bracket or ';' after a mistake still counts.
void addSkipped(std::u32string_view text, size_t from, size_t to, const std::vector<size_t>& offsets,
                std::vector<TextToken>& out) {
  for (size_t i = from; i < to; ++i) {
    if (text[i] == '#') {
      while (i < to && text[i] != '\n' && text[i] != '\r') ++i;
    } else if (!isBlank(text[i])) {
      const char ascii = text[i] < 0x80 ? static_cast<char>(text[i]) : '\0';
      const TokenKind kind = ascii == '\0' ? TokenKind::Other : kindOf(literalTokenType(std::string_view(&ascii, 1)));
      out.push_back({kind, offsets[i], offsets[i + 1]});
    }
  }
}

}  // namespace

TextTokens readTokens(std::string_view text) {
  // The tokenizer drops a leading byte order mark; offsets count it.
  const size_t skipped = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  std::vector<size_t> offsets;
  rdf::decodeUtf8(text.substr(skipped), &offsets);
  for (size_t& offset : offsets) offset += skipped;
  CodePointStream input(text.data(), text.size());
  const std::u32string_view points = input.codePoints();
  Tokenizer tokenizer(input);
  TextTokens result;
  size_t previousEnd = 0;
  for (auto token = tokenizer.nextToken(); token->getType() != antlr4::Token::EOF; token = tokenizer.nextToken()) {
    const size_t start = token->getStartIndex(), stop = token->getStopIndex() + 1;
    addSkipped(points, previousEnd, start, offsets, result.tokens);
    const TokenKind kind = kindOf(token->getType());
    // An empty string right before its own quote: a long string begins
    // there that the text does not close (closed, it would be the longer
    // token).
    if (kind == TokenKind::String && stop - start == 2 && stop < points.size() && points[stop] == points[start]) {
      result.unfinishedLongString = offsets[start];
      return result;
    }
    result.tokens.push_back({kind, offsets[start], offsets[stop]});
    previousEnd = stop;
  }
  addSkipped(points, previousEnd, points.size(), offsets, result.tokens);
  return result;
}

}  // namespace gsparql::sparql
