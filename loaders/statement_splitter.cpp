#include "loaders/statement_splitter.h"

#include <array>
#include <cstdio>
#include <string_view>
#include <cstring>

namespace gsparql {
namespace {

// Enough for the longest thing looked at in one step: \UXXXXXXXX.
constexpr size_t kLookahead = 16;
constexpr size_t kInitialBuffer = 1 << 16;  // grows for longer statements

std::string hex(uint32_t value, int digits) {
  char text[16];
  std::snprintf(text, sizeof text, "%0*X", digits, value);
  return text;
}

// Length of the well-formed UTF-8 sequence at `p` (RFC 3629: no overlong
// forms, no surrogates, nothing above U+10FFFF), or 0.
size_t utf8Length(const unsigned char* p, size_t available) {
  const unsigned char c = p[0];
  unsigned char low = 0x80, high = 0xBF;
  size_t length;
  if (c >= 0xC2 && c <= 0xDF) {
    length = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    length = 3;
    if (c == 0xE0) low = 0xA0;   // overlong below U+0800
    if (c == 0xED) high = 0x9F;  // surrogates U+D800..U+DFFF
  } else if (c >= 0xF0 && c <= 0xF4) {
    length = 4;
    if (c == 0xF0) low = 0x90;   // overlong below U+10000
    if (c == 0xF4) high = 0x8F;  // beyond U+10FFFF
  } else {
    return 0;
  }
  if (available < length || p[1] < low || p[1] > high) return 0;
  for (size_t i = 2; i < length; ++i) {
    if (p[i] < 0x80 || p[i] > 0xBF) return 0;
  }
  return length;
}

// Bytes that need no second look inside an IRI or a short string: printable
// ASCII but for what ends the context or starts an escape. Skipping runs of
// them is what makes cutting fast.
constexpr std::array<bool, 256> plainBytes(std::string_view special) {
  std::array<bool, 256> plain{};
  for (int c = 0x20; c < 0x7F; ++c) plain[c] = special.find(static_cast<char>(c)) == std::string_view::npos;
  return plain;
}
constexpr auto kPlainInIri = plainBytes(" <>\"\\");
constexpr auto kPlainInString = plainBytes("\"'\\");

bool isHex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// Bytes that may follow a `.` inside a name or a number (ex:a.b, 1.5, 1.e3).
bool continuesName(unsigned char c) {
  return c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         std::strchr("_-:.%\\", c) != nullptr;
}

}  // namespace

TextPosition Statement::positionOf(size_t offset) const {
  TextPosition p = start;
  for (size_t i = 0; i < offset && i < size; ++i) {
    if (text[i] == '\n') {
      ++p.line;
      p.column = 1;
    } else {
      ++p.column;
    }
  }
  return p;
}

StatementSplitter::StatementSplitter(InputStream& input, const SplitOptions& options)
    : input_(input),
      stopAtProblem_(options.stopAtProblem),
      statementPerLine_(options.statementPerLine),
      graphBlocks_(options.graphBlocks),
      buffer_(kInitialBuffer),
      position_{options.firstLine, 1} {}

bool StatementSplitter::next(Statement& statement) {
  restoreTerminatorByte();
  begin_ = pos_;
  lastStart_ = position_;
  context_ = Context::Normal;
  depth_ = 0;
  braces_ = 0;
  firstToken_.reset();
  problem_.reset();
  cutAtLineEnd_ = false;
  bool terminated = false;
  for (;;) {
    while (end_ - pos_ < kLookahead && fill()) {
    }
    if (pos_ == end_ || (problem_ && stopAtProblem_)) break;
    if (pos_ - begin_ >= kMaxStatementBytes) {
      report("statement longer than " + std::to_string(kMaxStatementBytes >> 20) +
                 " MiB (an unclosed bracket, string or IRI?)",
             firstToken_ ? firstTokenPosition_ : lastStart_);
      break;
    }
    if (!firstToken_ && context_ == Context::Normal) {
      // Space before a statement is not part of it: neither the reader nor the size limit sees it.
      begin_ = pos_;
      lastStart_ = position_;
    }
    if ((terminated = scanOne()) || cutAtLineEnd_) break;
  }
  if (pos_ == end_ && context_ != Context::Normal && context_ != Context::Comment) {
    report(context_ == Context::Iri ? "the input ends inside an IRI" : "the input ends inside a string");
  }
  if (!terminated && !firstToken_ && !problem_) return false;

  statement.text = buffer_.data() + begin_;
  statement.size = pos_ - begin_;
  statement.start = lastStart_;
  statement.firstToken = firstToken_.value_or(0);
  statement.terminated = terminated;
  statement.problem = problem_;
  // The reader wants NUL-terminated text; the byte after the statement is put back by the next call.
  if (pos_ < end_) overwritten_ = buffer_[pos_];
  buffer_[pos_] = '\0';
  return true;
}

void StatementSplitter::skipPastLine(uint64_t line) {
  restoreTerminatorByte();
  pos_ = begin_;
  position_ = lastStart_;
  while (position_.line <= line) {
    begin_ = pos_;  // what is skipped need not stay in the buffer
    if (pos_ == end_ && !fill()) break;
    advance();
  }
  begin_ = pos_;
}

void StatementSplitter::restoreTerminatorByte() {
  if (overwritten_) buffer_[pos_] = *overwritten_;
  overwritten_.reset();
}

bool StatementSplitter::fill() {
  if (eof_) return false;
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    pos_ -= begin_;
    end_ -= begin_;
    begin_ = 0;
  }
  // One byte stays free for the NUL after the last statement.
  if (buffer_.size() - end_ < kLookahead + 1) buffer_.resize(buffer_.size() * 2);
  const size_t n = input_.read(buffer_.data() + end_, buffer_.size() - end_ - 1);
  end_ += n;
  eof_ = n == 0;
  return n > 0;
}

bool StatementSplitter::scanOne() {
  const auto c = static_cast<unsigned char>(buffer_[pos_]);
  if (c == 0 && context_ != Context::String && context_ != Context::LongString) {  // strings may hold it
    report("NUL byte");
    advance();
    return false;
  }
  if (c == '\n' && statementPerLine_ && (firstToken_ || problem_) &&
      (context_ == Context::Normal || context_ == Context::Comment)) {
    // The line end ends the bad statement (or a bad comment line before
    // one), so a lenient read goes on at the next line whether or not the
    // input was cut into pieces there.
    // N-Triples 1.2's VERSION "1.2" is the one statement without a '.'.
    const std::string_view rest(buffer_.data() + begin_ + firstToken_.value_or(0), end_ - begin_ - firstToken_.value_or(0));
    if (firstToken_ && !rest.starts_with("VERSION")) {
      report("the statement does not end on its line (N-Triples and N-Quads have one statement a line)");
    }
    cutAtLineEnd_ = true;
    return false;
  }
  switch (context_) {
    case Context::Normal: return scanNormal(c);
    case Context::Iri: scanIri(c); break;
    case Context::String: scanString(c); break;
    case Context::LongString: scanLongString(c); break;
    case Context::Comment:
      if (c == '\n' || c == '\r') context_ = Context::Normal;
      advanceCharacter();
      break;
  }
  return false;
}

bool StatementSplitter::scanNormal(unsigned char c) {
  if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
    advance();
    return false;
  }
  if (c == '#') {
    context_ = Context::Comment;
    advance();
    return false;
  }
  if (!firstToken_) {
    firstToken_ = pos_ - begin_;
    firstTokenPosition_ = position_;
  }
  switch (c) {
    case '.':
      if (depth_ == 0 && braces_ == 0 && endsStatement()) {
        advance();
        return true;
      }
      advance();
      break;
    case '<':
      if (pos_ + 1 < end_ && buffer_[pos_ + 1] == '<') {  // << and <<( of RDF 1.2, one level each
        open(pos_ + 2 < end_ && buffer_[pos_ + 2] == '(' ? 3 : 2);
      } else {
        context_ = Context::Iri;
        advance();
      }
      break;
    case '>':
      if (depth_ > 0 && pos_ + 1 < end_ && buffer_[pos_ + 1] == '>') --depth_;
      advance(pos_ + 1 < end_ && buffer_[pos_ + 1] == '>' ? 2 : 1);
      break;
    case '|':
      if (depth_ > 0 && pos_ + 1 < end_ && buffer_[pos_ + 1] == '}') --depth_;  // the end of an annotation
      advance(pos_ + 1 < end_ && buffer_[pos_ + 1] == '}' ? 2 : 1);
      break;
    case '"':
    case '\'':
      quote_ = static_cast<char>(c);
      // A run of three quotes opens a long string (not in N-Triples or N-Quads).
      if (!statementPerLine_ && end_ - pos_ >= 3 && buffer_[pos_ + 1] == quote_ && buffer_[pos_ + 2] == quote_) {
        context_ = Context::LongString;
        advance(3);
      } else {
        context_ = Context::String;
        advance();
      }
      break;
    case '[':
    case '(':
      open(1);
      break;
    case ']':
    case ')':
      if (depth_ > 0) --depth_;
      advance(c == ')' && pos_ + 2 < end_ && buffer_[pos_ + 1] == '>' && buffer_[pos_ + 2] == '>' ? 3 : 1);
      break;
    case '{':
      if (pos_ + 1 < end_ && buffer_[pos_ + 1] == '|') {  // an annotation, not a graph block
        open(2);
        break;
      }
      if (graphBlocks_ && ++braces_ == kMaxNesting + 1) {
        report("nesting deeper than " + std::to_string(kMaxNesting) + " levels of { }");
      }
      advance();
      break;
    case '}':
      advance();
      if (!graphBlocks_ || braces_ == 0) break;
      return --braces_ == 0 && depth_ == 0;  // a graph block ends its statement
    case '\\':
      scanEscape();
      break;
    default:
      advanceCharacter();
  }
  return false;
}

// An opening bracket of `bytes` bytes: [ ( << {|
void StatementSplitter::open(size_t bytes) {
  if (++depth_ == kMaxNesting + 1) {
    report("nesting deeper than " + std::to_string(kMaxNesting) + " levels of [ ], ( ), << >> or {| |}");
  }
  advance(bytes);
}

void StatementSplitter::scanIri(unsigned char c) {
  if (c == '>') {
    context_ = Context::Normal;
    advance();
  } else if (c <= 0x20 || c == '<' || c == '"') {
    context_ = Context::Normal;  // a broken IRI: the reader reports it, the byte is read as outside
  } else if (c == '\\') {
    scanEscape();
  } else if (kPlainInIri[c]) {
    skipPlain(kPlainInIri);
  } else {
    advanceCharacter();
  }
}

void StatementSplitter::scanString(unsigned char c) {
  if (c == static_cast<unsigned char>(quote_)) {
    context_ = Context::Normal;
    advance();
  } else if (c == '\n' || c == '\r') {
    // An unterminated string: the reader reports it, unless the line end cuts the statement first.
    if (statementPerLine_) report("line end in short string");
    context_ = Context::Normal;
  } else if (c == '\\') {
    scanEscape();
  } else if (kPlainInString[c]) {
    skipPlain(kPlainInString);
  } else {
    advanceCharacter();
  }
}

void StatementSplitter::scanLongString(unsigned char c) {
  if (c == static_cast<unsigned char>(quote_) && end_ - pos_ >= 3 && buffer_[pos_ + 1] == quote_ &&
      buffer_[pos_ + 2] == quote_) {
    context_ = Context::Normal;
    advance(3);
  } else if (c == static_cast<unsigned char>(quote_) && end_ - pos_ >= 2 && buffer_[pos_ + 1] == quote_) {
    advance(2);  // two quotes inside do not end it
  } else if (c == '\\') {
    scanEscape();
  } else {
    advanceCharacter();
  }
}

// At a backslash: \u and \U must name a character; any other escape is
// stepped over (the reader judges it), but never a line end or a non-ASCII byte.
void StatementSplitter::scanEscape() {
  const TextPosition at = position_;
  const char kind = end_ - pos_ > 1 ? buffer_[pos_ + 1] : '\0';
  const size_t digits = kind == 'u' ? 4 : kind == 'U' ? 8 : 0;
  if (digits == 0 || end_ - pos_ < 2 + digits) {
    advance(kind > 0x20 && kind < 0x7F ? 2 : 1);
    return;
  }
  uint32_t code = 0;
  for (size_t i = 0; i < digits; ++i) {
    const char h = buffer_[pos_ + 2 + i];
    if (!isHex(h)) {
      advance(2);
      return;
    }
    code = code * 16 + static_cast<uint32_t>(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
  }
  if (code > 0x10FFFF) {
    report("escape of U+" + hex(code, 4) + ", beyond Unicode (at most U+10FFFF)", at);
  } else if (code >= 0xD800 && code <= 0xDFFF) {
    report("escape of the surrogate U+" + hex(code, 4) + ", which is not a character", at);
  }
  advance(2 + digits);
}

bool StatementSplitter::endsStatement() const {
  return pos_ + 1 == end_ || !continuesName(static_cast<unsigned char>(buffer_[pos_ + 1]));
}

void StatementSplitter::advance(size_t bytes) {
  for (size_t i = 0; i < bytes && pos_ < end_; ++i, ++pos_) {
    if (buffer_[pos_] == '\n') {
      ++position_.line;
      position_.column = 1;
    } else {
      ++position_.column;
    }
  }
}

void StatementSplitter::skipPlain(const std::array<bool, 256>& plain) {
  size_t end = pos_;
  while (end < end_ && plain[static_cast<unsigned char>(buffer_[end])]) ++end;
  position_.column += end - pos_;  // no line ends among them
  pos_ = end;
}

void StatementSplitter::advanceCharacter() {
  const auto* p = reinterpret_cast<const unsigned char*>(buffer_.data() + pos_);
  if (*p < 0x80) {
    advance();
    return;
  }
  const size_t length = utf8Length(p, end_ - pos_);
  if (length == 0) report("invalid UTF-8 (byte 0x" + hex(*p, 2) + ")");
  advance(length == 0 ? 1 : length);
}

void StatementSplitter::report(std::string message, TextPosition where) {
  if (!problem_) problem_ = TextProblem{where, std::move(message)};
}

}  // namespace gsparql
