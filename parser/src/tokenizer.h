#pragma once
// The grammar's tokens, read by hand. ANTLR's generated lexer simulates an
// automaton per character and was a third of a parse
// (benchmarks/results/parse-profile-dev-2core); the parser stays ANTLR's.
// This gives the same tokens, positions and first error as SparqlLexer
// (longest match, ties to the rule first in the grammar, one character
// skipped after an error): tests/parser/tokenizer_test.cpp compares the two
// on the corpora and on random token soups, fuzz/tokenizer_fuzzer.cpp on any
// text.
#include <ANTLRInputStream.h>
#include <CommonToken.h>
#include <TokenSource.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace gsparql::sparql {

// SPARQL's white space between tokens (WS, section 19.8).
inline bool isBlank(char32_t c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// The query as code points, which tokens index (as ANTLR's lexer's do).
// Decoded here: ANTLR's own conversion goes through std::codecvt and cost as
// much as tokenizing. Text that is not UTF-8 (the parser rejects it before)
// reads as U+FFFD where it breaks. A leading byte order mark is dropped.
class CodePointStream : public antlr4::ANTLRInputStream {
 public:
  CodePointStream(const char* text, size_t size);
  std::u32string_view codePoints() const { return _data; }
};

// The first text no token matches, where SparqlLexer reports it: the line
// (from 1) and column (from 0, in code points) where the token would start,
// and ANTLR's message, which shows the text up to where every token failed.
struct LexerError {
  size_t line = 0;
  size_t column = 0;
  std::string message;
};

// A run of the characters a prefix is made of (PN_CHARS and '.') after a
// PN_CHARS_BASE, remembered while tokens are taken from inside it: a keyword
// or 'a' at the start of a long run without ':' would otherwise scan the run
// again from each token, quadratic in its length.
struct PrefixRun {
  size_t from = 0;     // the first position whose run this is
  size_t end = 0;      // one past the run
  size_t nameEnd = 0;  // one past its last character that is not '.'
};

// The type of the grammar's literal token `literal` ("{", "^^", "a"); 0 if
// the grammar has none.
size_t literalTokenType(std::string_view literal);

class Tokenizer final : public antlr4::TokenSource {
 public:
  // `input` must outlive the tokens: their text is read from it.
  explicit Tokenizer(CodePointStream& input) : input_(&input), text_(input.codePoints()) {}

  // The next token on the default channel (white space and comments are
  // skipped), then EOF for ever.
  std::unique_ptr<antlr4::Token> nextToken() override;
  size_t getLine() const override { return line_; }
  size_t getCharPositionInLine() override { return column_; }
  antlr4::CharStream* getInputStream() override { return input_; }
  std::string getSourceName() override { return input_->getSourceName(); }
  antlr4::TokenFactory<antlr4::CommonToken>* getTokenFactory() override;

  const std::optional<LexerError>& firstError() const { return firstError_; }

 private:
  void skipBlanks();
  void advanceTo(size_t position);
  void recordError(size_t failedAt);
  std::unique_ptr<antlr4::Token> token(size_t type, size_t start, size_t stop, size_t line, size_t column);

  CodePointStream* input_;
  std::u32string_view text_;
  size_t position_ = 0;
  size_t line_ = 1;
  size_t column_ = 0;
  PrefixRun run_;
  std::optional<LexerError> firstError_;
};

}  // namespace gsparql::sparql
