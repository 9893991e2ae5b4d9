#pragma once
// Cuts N-Triples, Turtle, N-Quads or TriG text into top-level statements for
// the reader (loaders/turtle_reader.h), and checks on the way what every
// statement must satisfy: valid UTF-8 (no overlong forms, surrogates, bytes
// beyond U+10FFFF), escapes of code points that are characters, no NUL byte
// outside strings, and nesting of `[ ]`, `( )`, `<< >>` and `{| |}` no
// deeper than kMaxNesting.
//
// A statement ends at a `.` outside IRIs, strings, comments and brackets
// that no name or number continues; in TriG also at the `}` that closes a
// graph block. Two real statements may end up in one
// piece (`"x".ex:s ...`), never one statement in two, so reading piece by
// piece gives the reader's answer for valid input.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loaders/input_stream.h"

namespace gsparql {

struct TextPosition {
  uint64_t line = 1;
  uint64_t column = 1;  // in bytes, from 1
};

struct TextProblem {
  TextPosition where;
  std::string message;
};

struct Statement {
  char* text = nullptr;  // NUL-terminated in place; valid until the next call to next()
  size_t size = 0;
  TextPosition start;       // of text[0]
  size_t firstToken = 0;    // offset of the first byte that is neither space nor comment
  bool terminated = false;  // ended with its `.` (false: at the end of input or at a problem)
  std::optional<TextProblem> problem;  // the first thing wrong found while cutting

  // Line and column of text[offset].
  TextPosition positionOf(size_t offset) const;
};

// Deeper nesting is refused: the reader recurses a few frames per level.
inline constexpr int kMaxNesting = 512;
// A longer statement is refused: it is almost surely an unclosed bracket,
// string or IRI, and would otherwise be buffered to the end of the input.
inline constexpr size_t kMaxStatementBytes = size_t{64} << 20;

struct SplitOptions {
  // Return a statement as soon as something is wrong with it (a strict load
  // stops there) instead of reading on to its end.
  bool stopAtProblem = true;
  // N-Triples and N-Quads: a statement ends on the line where it starts, as
  // their grammar says (a Turtle reader would read on), so that line-based input can be
  // cut at any line end and read piece by piece.
  bool statementPerLine = false;
  // The line number of the input's first byte (a piece of a larger input).
  uint64_t firstLine = 1;
  // TriG: `{ ... }` holds a graph's statements, and its `}` ends a statement.
  bool graphBlocks = false;
};

class StatementSplitter {
 public:
  StatementSplitter(InputStream& input, const SplitOptions& options);

  // The next statement; false once the input holds nothing but space and comments.
  bool next(Statement& statement);

  // After a statement that did not end with its `.`: continue at the line
  // after `line` (counted from the start of the input), as a reader that
  // lost its way in a bad statement must.
  void skipPastLine(uint64_t line);

 private:
  enum class Context { Normal, Iri, String, LongString, Comment };

  bool fill();  // reads more input; false at its end
  bool scanOne();  // one step in the current context; true when the statement ended
  bool scanNormal(unsigned char c);  // true at the `.` that ends the statement
  void scanIri(unsigned char c);
  void scanString(unsigned char c);
  void scanLongString(unsigned char c);
  void scanEscape();
  bool endsStatement() const;  // the `.` at pos_ ends the statement
  void open(size_t bytes);     // an opening bracket: [ ( << {|
  void advance(size_t bytes = 1);
  void advanceCharacter();  // one byte, or one UTF-8 character after validating it
  void skipPlain(const std::array<bool, 256>& plain);  // a run of bytes that `plain` marks
  void report(std::string message, TextPosition where);
  void report(std::string message) { report(std::move(message), position_); }
  void restoreTerminatorByte();

  InputStream& input_;
  const bool stopAtProblem_;
  const bool statementPerLine_;
  const bool graphBlocks_;
  std::vector<char> buffer_;
  size_t begin_ = 0, pos_ = 0, end_ = 0;  // current statement, scan position, data end
  bool eof_ = false;
  TextPosition position_;  // of buffer_[pos_]
  Context context_ = Context::Normal;
  char quote_ = '"';
  int depth_ = 0;
  int braces_ = 0;  // open `{` of TriG graph blocks
  std::optional<size_t> firstToken_;
  TextPosition firstTokenPosition_;
  std::optional<TextProblem> problem_;
  bool cutAtLineEnd_ = false;  // a line-based statement reached its line end unterminated
  std::optional<char> overwritten_;  // the byte that the NUL after the last statement replaced
  TextPosition lastStart_;
};

}  // namespace gsparql
