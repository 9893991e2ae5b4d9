#include "parser/src/tokenizer.h"

#include <CommonTokenFactory.h>

#include <algorithm>
#include <array>
#include <unordered_map>
#include <vector>

#include "SparqlLexer.h"
#include "rdf/term.h"

namespace gsparql::sparql {
namespace {

using L = gsparql_antlr::SparqlLexer;

// Past the end of the text: in no character class.
constexpr char32_t kEnd = 0xFFFFFFFF;
constexpr size_t kNoMatch = std::u32string_view::npos;

// ---- the grammar's character classes (its fragments) ----

bool isAsciiLetter(char32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isDigit(char32_t c) { return c >= '0' && c <= '9'; }
bool isHex(char32_t c) { return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

bool isPnCharsBase(char32_t c) {
  if (c < 0x80) return isAsciiLetter(c);
  return (c >= 0xC0 && c <= 0xD6) || (c >= 0xD8 && c <= 0xF6) || (c >= 0xF8 && c <= 0x2FF) ||
         (c >= 0x370 && c <= 0x37D) || (c >= 0x37F && c <= 0x1FFF) || (c >= 0x200C && c <= 0x200D) ||
         (c >= 0x2070 && c <= 0x218F) || (c >= 0x2C00 && c <= 0x2FEF) || (c >= 0x3001 && c <= 0xD7FF) ||
         (c >= 0xF900 && c <= 0xFDCF) || (c >= 0xFDF0 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0xEFFFF);
}
bool isPnCharsU(char32_t c) { return isPnCharsBase(c) || c == '_'; }
bool isVarNameStart(char32_t c) { return isPnCharsU(c) || isDigit(c); }
bool isVarNameChar(char32_t c) {
  return isVarNameStart(c) || c == 0xB7 || (c >= 0x300 && c <= 0x36F) || (c >= 0x203F && c <= 0x2040);
}
bool isPnChars(char32_t c) { return isVarNameChar(c) || c == '-'; }
bool isEcharLetter(char32_t c) { return std::u32string_view(U"tbnrf\\\"'").find(c) != kNoMatch; }
bool isLocalEscaped(char32_t c) { return std::u32string_view(U"_~.-!$&'()*+,;=/?#@%").find(c) != kNoMatch; }
bool isIriExcluded(char32_t c) {
  switch (c) {
    case '<': case '>': case '"': case '{': case '}': case '|': case '^': case '`': case '\\':
      return true;
    default:
      return c <= 0x20;
  }
}

// ---- token tables, read from the generated lexer's vocabulary ----

const antlr4::dfa::Vocabulary& vocabulary() {
  static antlr4::ANTLRInputStream empty;
  static const L lexer(&empty);
  return lexer.getVocabulary();
}

// The grammar's literal tokens ('{', '^^', '<<(', 'a', ...), all ASCII, by
// their first character, longest first: the longest that matches is taken.
struct LiteralToken {
  std::string text;
  size_t type = 0;
};
using LiteralTokens = std::array<std::vector<LiteralToken>, 128>;

const LiteralTokens& literalTokens() {
  static const LiteralTokens tokens = [] {
    LiteralTokens out;
    for (size_t type = 1; type <= vocabulary().getMaxTokenType(); ++type) {
      const std::string quoted = vocabulary().getLiteralName(type);  // as 'x'
      if (quoted.size() < 3) continue;
      std::string text = quoted.substr(1, quoted.size() - 2);
      out.at(static_cast<unsigned char>(text[0])).push_back({std::move(text), type});
    }
    for (auto& starting : out) {
      std::sort(starting.begin(), starting.end(),
                [](const LiteralToken& a, const LiteralToken& b) { return a.text.size() > b.text.size(); });
    }
    return out;
  }();
  return tokens;
}

constexpr size_t kLongestKeyword = 14;  // ENCODE_FOR_URI

// Keywords (case-insensitive) by their upper-case text: the symbolic names
// before IRIREF, which the grammar spells as the keywords themselves.
const std::unordered_map<std::string, size_t>& keywords() {
  static const auto* map = [] {
    auto* out = new std::unordered_map<std::string, size_t>;
    for (size_t type = L::BASE; type < L::IRIREF; ++type) (*out)[vocabulary().getSymbolicName(type)] = type;
    return out;
  }();
  return *map;
}

// ---- scanners: where the longest match of one token from `i` ends ----

struct Match {
  size_t type;
  size_t end;  // one past the last code point
};

class Scanner {
 public:
  Scanner(std::u32string_view text, PrefixRun& run) : text_(text), run_(&run) {}

  char32_t at(size_t i) const { return i < text_.size() ? text_[i] : kEnd; }
  size_t size() const { return text_.size(); }

  // The longest token from `i` (not white space), or none.
  std::optional<Match> longest(size_t i) const;
  // Where every token that could start at `i` fails: the index of the
  // character none accepts (the text's size at its end).
  size_t failure(size_t i) const;

 private:
  std::optional<Match> punctuation(size_t i) const;
  std::optional<Match> name(size_t i) const;
  std::optional<Match> number(size_t i, bool signedNumber) const;
  std::optional<Match> stringLiteral(size_t i) const;
  size_t iriRef(size_t i) const;
  size_t escape(size_t i) const;
  size_t localEscape(size_t i) const;
  const PrefixRun& prefixRun(size_t i) const;
  size_t prefixColon(size_t i) const;
  size_t localNameEnd(size_t i) const;
  size_t keywordEnd(size_t i, size_t* type) const;
  size_t labelEnd(size_t i) const;
  size_t langTagEnd(size_t i) const;
  size_t shortStringEnd(size_t i, char32_t quote, size_t* failedAt) const;
  size_t longStringEnd(size_t i, char32_t quote) const;
  size_t exponentEnd(size_t i) const;

  std::u32string_view text_;
  PrefixRun* run_;
};

// \uXXXX, \UXXXXXXXX or an ECHAR at `i` (the backslash): its end, or
// kNoMatch with where it failed in *failedAt.
size_t escapeEnd(const Scanner& s, size_t i, bool echar, size_t* failedAt) {
  const char32_t kind = s.at(i + 1);
  if (echar && isEcharLetter(kind)) return i + 2;
  if (kind != 'u' && kind != 'U') {
    *failedAt = std::min(i + 1, s.size());
    return kNoMatch;
  }
  const size_t digits = kind == 'u' ? 4 : 8;
  for (size_t k = 0; k < digits; ++k) {
    if (!isHex(s.at(i + 2 + k))) {
      *failedAt = std::min(i + 2 + k, s.size());
      return kNoMatch;
    }
  }
  return i + 2 + digits;
}

size_t Scanner::escape(size_t i) const {
  size_t ignored = 0;
  return escapeEnd(*this, i, true, &ignored);
}

size_t Scanner::iriRef(size_t i) const {
  for (size_t j = i + 1;;) {
    const char32_t c = at(j);
    if (c == '>') return j + 1;
    if (c == '\\') {
      size_t ignored = 0;
      j = escapeEnd(*this, j, false, &ignored);
      if (j == kNoMatch) return kNoMatch;
    } else if (c == kEnd || isIriExcluded(c)) {
      return kNoMatch;
    } else {
      ++j;
    }
  }
}

// PLX's escape: %XX or \ and one of the characters a local name may escape.
size_t Scanner::localEscape(size_t i) const {
  if (at(i) == '%' && isHex(at(i + 1)) && isHex(at(i + 2))) return i + 3;
  if (at(i) == '\\' && isLocalEscaped(at(i + 1))) return i + 2;
  return kNoMatch;
}

// PN_LOCAL from `i`: its end, or `i` where none starts.
size_t Scanner::localNameEnd(size_t i) const {
  const char32_t first = at(i);
  size_t j = isPnCharsU(first) || first == ':' || isDigit(first) ? i + 1 : localEscape(i);
  if (j == kNoMatch) return i;
  size_t end = j;  // it cannot end with '.'
  for (;;) {
    const char32_t c = at(j);
    if (isPnChars(c) || c == ':') {
      end = ++j;
    } else if (c == '.') {
      ++j;
    } else if (size_t escaped = localEscape(j); escaped != kNoMatch) {
      end = j = escaped;
    } else {
      return end;
    }
  }
}

// The ':' after PN_PREFIX from `i` (PN_CHARS_BASE or ':'), or kNoMatch.
size_t Scanner::prefixColon(size_t i) const {
  if (at(i) == ':') return i;
  const size_t colon = prefixRun(i).nameEnd;  // PN_PREFIX cannot end with '.'
  return at(colon) == ':' ? colon : kNoMatch;
}

// The run from `i`, a PN_CHARS_BASE; the one remembered where `i` is inside
// it (every character of a run is in it, and `i` is no '.').
const PrefixRun& Scanner::prefixRun(size_t i) const {
  if (i >= run_->from && i < run_->end) return *run_;
  run_->from = i;
  run_->nameEnd = i + 1;
  size_t j = i + 1;
  for (; isPnChars(at(j)) || at(j) == '.'; ++j) {
    if (at(j) != '.') run_->nameEnd = j + 1;
  }
  run_->end = j;
  return *run_;
}

// The longest keyword the text at `i` starts with (case-insensitively).
size_t Scanner::keywordEnd(size_t i, size_t* type) const {
  std::array<char, kLongestKeyword> upper{};
  size_t length = 0;
  for (char32_t c = at(i); length < kLongestKeyword && (isAsciiLetter(c) || isDigit(c) || c == '_');
       c = at(i + length)) {
    upper[length++] = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  }
  for (; length >= 2; --length) {
    const auto it = keywords().find(std::string(upper.data(), length));
    if (it != keywords().end()) {
      *type = it->second;
      return i + length;
    }
  }
  return kNoMatch;
}

// Keywords and prefixed names: the longest (a prefixed name outlasts any
// keyword it starts with, since it needs a ':' after its prefix).
std::optional<Match> Scanner::name(size_t i) const {
  if (size_t colon = prefixColon(i); colon != kNoMatch) {
    const size_t end = localNameEnd(colon + 1);
    return Match{end > colon + 1 ? L::PNAME_LN : L::PNAME_NS, end};
  }
  size_t type = 0;
  if (size_t end = keywordEnd(i, &type); end != kNoMatch) return Match{type, end};
  return std::nullopt;
}

size_t Scanner::exponentEnd(size_t i) const {
  if (at(i) != 'e' && at(i) != 'E') return kNoMatch;
  size_t j = i + 1;
  if (at(j) == '+' || at(j) == '-') ++j;
  if (!isDigit(at(j))) return kNoMatch;
  while (isDigit(at(j))) ++j;
  return j;
}

// INTEGER, DECIMAL or DOUBLE from `i` (a digit or '.'); signed: their
// _POSITIVE or _NEGATIVE twin from the sign before `i`.
std::optional<Match> Scanner::number(size_t i, bool signedNumber) const {
  size_t j = i;
  while (isDigit(at(j))) ++j;
  std::optional<Match> found;
  size_t mantissaEnd = kNoMatch;  // where an exponent would make a DOUBLE
  if (j > i) found = Match{L::INTEGER, mantissaEnd = j};
  if (at(j) == '.') {
    size_t k = j + 1;
    while (isDigit(at(k))) ++k;
    if (k > j + 1) found = Match{L::DECIMAL, k};
    if (found) mantissaEnd = k;
  }
  if (mantissaEnd != kNoMatch) {
    if (size_t end = exponentEnd(mantissaEnd); end != kNoMatch) found = Match{L::DOUBLE, end};
  }
  if (!found || !signedNumber) return found;
  const bool positive = at(i - 1) == '+';
  switch (found->type) {
    case L::INTEGER: found->type = positive ? L::INTEGER_POSITIVE : L::INTEGER_NEGATIVE; break;
    case L::DECIMAL: found->type = positive ? L::DECIMAL_POSITIVE : L::DECIMAL_NEGATIVE; break;
    default: found->type = positive ? L::DOUBLE_POSITIVE : L::DOUBLE_NEGATIVE; break;
  }
  return found;
}

size_t Scanner::shortStringEnd(size_t i, char32_t quote, size_t* failedAt) const {
  for (size_t j = i + 1;;) {
    const char32_t c = at(j);
    if (c == quote) return j + 1;
    if (c == '\n' || c == '\r' || c == kEnd) {
      *failedAt = std::min(j, size());
      return kNoMatch;
    }
    if (c == '\\') {
      j = escapeEnd(*this, j, true, failedAt);
      if (j == kNoMatch) return kNoMatch;
    } else {
      ++j;
    }
  }
}

// A long string's content holds at most two quotes in a row, so it closes
// at the first three.
size_t Scanner::longStringEnd(size_t i, char32_t quote) const {
  if (at(i + 1) != quote || at(i + 2) != quote) return kNoMatch;
  for (size_t j = i + 3;;) {
    size_t quotes = 0;
    while (quotes < 3 && at(j + quotes) == quote) ++quotes;
    if (quotes == 3) return j + 3;
    j += quotes;
    const char32_t c = at(j);
    if (c == kEnd) return kNoMatch;
    if (c == '\\') {
      j = escape(j);
      if (j == kNoMatch) return kNoMatch;
    } else {
      ++j;
    }
  }
}

std::optional<Match> Scanner::stringLiteral(size_t i) const {
  const char32_t quote = at(i);
  const bool single = quote == '\'';
  if (size_t end = longStringEnd(i, quote); end != kNoMatch) {
    return Match{single ? L::STRING_LITERAL_LONG1 : L::STRING_LITERAL_LONG2, end};
  }
  size_t failedAt = 0;
  if (size_t end = shortStringEnd(i, quote, &failedAt); end != kNoMatch) {
    return Match{single ? L::STRING_LITERAL1 : L::STRING_LITERAL2, end};
  }
  return std::nullopt;
}

size_t Scanner::labelEnd(size_t i) const {
  if (at(i + 1) != ':' || !(isPnCharsU(at(i + 2)) || isDigit(at(i + 2)))) return kNoMatch;
  size_t end = i + 3;  // it cannot end with '.'
  for (size_t j = end; isPnChars(at(j)) || at(j) == '.'; ++j) {
    if (at(j) != '.') end = j + 1;
  }
  return end;
}

size_t Scanner::langTagEnd(size_t i) const {
  size_t j = i + 1;
  if (!isAsciiLetter(at(j))) return kNoMatch;
  while (isAsciiLetter(at(j))) ++j;
  while (at(j) == '-' && (isAsciiLetter(at(j + 1)) || isDigit(at(j + 1)))) {
    j += 2;
    while (isAsciiLetter(at(j)) || isDigit(at(j))) ++j;
  }
  if (at(j) == '-' && at(j + 1) == '-' && isAsciiLetter(at(j + 2))) {  // SPARQL 1.2's base direction
    j += 3;
    while (isAsciiLetter(at(j))) ++j;
  }
  return j;
}

// Operators, brackets and 'a': the longest of the literal tokens, NIL and ANON.
std::optional<Match> Scanner::punctuation(size_t i) const {
  const char32_t c = at(i);
  if (c == '(' || c == '[') {
    size_t j = i + 1;
    while (isBlank(at(j))) ++j;
    const char32_t close = c == '(' ? ')' : ']';
    if (at(j) == close) return Match{c == '(' ? L::NIL : L::ANON, j + 1};
  }
  if (c >= 0x80) return std::nullopt;
  for (const LiteralToken& literal : literalTokens()[c]) {
    size_t k = 1;
    while (k < literal.text.size() && at(i + k) == static_cast<unsigned char>(literal.text[k])) ++k;
    if (k == literal.text.size()) return Match{literal.type, i + k};
  }
  return std::nullopt;
}

std::optional<Match> Scanner::longest(size_t i) const {
  const char32_t c = at(i);
  std::optional<Match> best;
  const auto consider = [&best](std::optional<Match> m) {
    if (m && (!best || m->end > best->end)) best = m;
  };
  if (isPnCharsBase(c) || c == ':') consider(name(i));
  if (isDigit(c) || c == '.') consider(number(i, false));
  if ((c == '+' || c == '-') && (isDigit(at(i + 1)) || at(i + 1) == '.')) consider(number(i + 1, true));
  if (c == '"' || c == '\'') consider(stringLiteral(i));
  if (c == '<') {
    if (size_t end = iriRef(i); end != kNoMatch) consider(Match{L::IRIREF, end});
  }
  if (c == '?' || c == '$') {
    size_t j = i + 1;
    while (j == i + 1 ? isVarNameStart(at(j)) : isVarNameChar(at(j))) ++j;
    if (j > i + 1) consider(Match{c == '?' ? L::VAR1 : L::VAR2, j});
  }
  if (c == '_') {
    if (size_t end = labelEnd(i); end != kNoMatch) consider(Match{L::BLANK_NODE_LABEL, end});
  }
  if (c == '@') {
    if (size_t end = langTagEnd(i); end != kNoMatch) consider(Match{L::LANGTAG, end});
  }
  // On equal length the grammar's first rule wins: the literal tokens.
  if (auto p = punctuation(i); p && (!best || p->end >= best->end)) best = p;
  return best;
}

size_t Scanner::failure(size_t i) const {
  const char32_t c = at(i);
  if (c == '"' || c == '\'') {
    // The long form failed at the second quote; the short one goes on.
    size_t failedAt = size();
    shortStringEnd(i, c, &failedAt);
    return failedAt;
  }
  if (c == '_') return at(i + 1) == ':' ? std::min(i + 2, size()) : std::min(i + 1, size());
  if (c == '@' || c == '$' || c == '&') return std::min(i + 1, size());
  // A prefix without its ':' (keywords are prefixes of it too).
  if (isPnCharsBase(c)) return std::min(prefixRun(i).end, size());
  return i;
}

}  // namespace

size_t literalTokenType(std::string_view literal) {
  const auto first = literal.empty() ? 0x80 : static_cast<unsigned char>(literal[0]);
  if (first >= 0x80) return 0;
  for (const LiteralToken& token : literalTokens()[first]) {
    if (token.text == literal) return token.type;
  }
  return 0;
}

CodePointStream::CodePointStream(const char* text, size_t size) {
  std::string_view bytes(text, size);
  // A leading byte order mark is dropped, as ANTLR's conversion does.
  if (bytes.starts_with("\xEF\xBB\xBF")) bytes.remove_prefix(3);
  _data = rdf::decodeUtf8(bytes);
}

antlr4::TokenFactory<antlr4::CommonToken>* Tokenizer::getTokenFactory() {
  return antlr4::CommonTokenFactory::DEFAULT.get();
}

void Tokenizer::advanceTo(size_t position) {
  for (; position_ < position; ++position_) {
    if (text_[position_] == '\n') {
      ++line_;
      column_ = 0;
    } else {
      ++column_;
    }
  }
}

void Tokenizer::skipBlanks() {
  while (position_ < text_.size()) {
    const char32_t c = text_[position_];
    if (isBlank(c)) {
      advanceTo(position_ + 1);
    } else if (c == '#') {
      size_t end = position_;
      while (end < text_.size() && text_[end] != '\n' && text_[end] != '\r') ++end;
      advanceTo(end);
    } else {
      return;
    }
  }
}

// ANTLR's message shows the text from the token's start to the character
// where it failed, that one included, with line breaks and tabs escaped.
void Tokenizer::recordError(size_t failedAt) {
  if (firstError_) return;
  std::string shown;
  const size_t last = std::min(failedAt, text_.size() - 1);
  for (size_t k = position_; k <= last; ++k) {
    switch (text_[k]) {
      case '\n': shown += "\\n"; break;
      case '\t': shown += "\\t"; break;
      case '\r': shown += "\\r"; break;
      default: rdf::appendUtf8(shown, text_[k]);
    }
  }
  firstError_ = LexerError{line_, column_, "token recognition error at: '" + shown + "'"};
}

std::unique_ptr<antlr4::Token> Tokenizer::token(size_t type, size_t start, size_t stop, size_t line,
                                                size_t column) {
  auto made = std::make_unique<antlr4::CommonToken>(std::make_pair(this, input_), type,
                                                    antlr4::Token::DEFAULT_CHANNEL, start, stop);
  made->setLine(line);
  made->setCharPositionInLine(column);
  return made;
}

std::unique_ptr<antlr4::Token> Tokenizer::nextToken() {
  const Scanner scanner(text_, run_);
  for (;;) {
    skipBlanks();
    if (position_ >= text_.size()) return token(antlr4::Token::EOF, position_, position_ - 1, line_, column_);
    if (const auto match = scanner.longest(position_)) {
      auto made = token(match->type, position_, match->end - 1, line_, column_);
      advanceTo(match->end);
      return made;
    }
    // As ANTLR's lexer recovers: skip to past the character that failed.
    const size_t failedAt = scanner.failure(position_);
    recordError(failedAt);
    advanceTo(std::min(failedAt + 1, text_.size()));
  }
}

}  // namespace gsparql::sparql
