#include "loaders/turtle_reader.h"

#include <strings.h>

#include <array>
#include <cctype>
#include <cstring>
#include <utility>

#include "loaders/statement_splitter.h"
#include "rdf/iri.h"
#include "rdf/term.h"

namespace gsparql {
namespace {

constexpr std::string_view kRdfDirLangString = "http://www.w3.org/1999/02/22-rdf-syntax-ns#dirLangString";
constexpr std::string_view kTypeTerm = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>";
constexpr std::string_view kFirstTerm = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#first>";
constexpr std::string_view kRestTerm = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#rest>";
constexpr std::string_view kNilTerm = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#nil>";
constexpr std::string_view kReifiesTerm = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies>";
const std::string kXsdBoolean = std::string(rdf::kXsd) + "boolean";
const std::string kXsdInteger = std::string(rdf::kXsd) + "integer";
const std::string kXsdDecimal = std::string(rdf::kXsd) + "decimal";
const std::string kXsdDouble = std::string(rdf::kXsd) + "double";

bool isAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isDigit(char c) { return c >= '0' && c <= '9'; }

// After a keyword ('a', true, PREFIX): a name goes on (a.b:c and prefix:x are names).
bool continuesName(char c) {
  return isAsciiLetter(c) || isDigit(c) || c == '_' || c == '-' || c == ':' || c == '.' || c == '\\' || c == '%' ||
         static_cast<unsigned char>(c) >= 0x80;
}

// Bytes an IRIREF holds as they are: not controls, space, <>"{}|^` or the
// backslash of an escape (the bytes that rdf::appendIri would escape).
constexpr std::array<bool, 256> kPlainInIri = [] {
  std::array<bool, 256> plain{};
  for (int c = 0x21; c < 0x100; ++c) {
    plain[c] = std::string_view("<>\"{}|^`\\").find(static_cast<char>(c)) == std::string_view::npos;
  }
  return plain;
}();

// The code point of the UTF-8 sequence at `p` (checked by StatementSplitter), and its length.
char32_t decode(const char* p, size_t* length) {
  const auto c = static_cast<unsigned char>(p[0]);
  auto cont = [&](int i) { return static_cast<char32_t>(static_cast<unsigned char>(p[i]) & 0x3F); };
  if (c < 0x80) return *length = 1, c;
  if (c < 0xE0) return *length = 2, ((c & 0x1F) << 6) | cont(1);
  if (c < 0xF0) return *length = 3, ((c & 0x0F) << 12) | (cont(1) << 6) | cont(2);
  return *length = 4, ((c & 0x07) << 18) | (cont(1) << 12) | (cont(2) << 6) | cont(3);
}

bool isPnCharsBase(char32_t c) {
  return (c < 0x80 && isAsciiLetter(static_cast<char>(c))) || (c >= 0xC0 && c <= 0xD6) ||
         (c >= 0xD8 && c <= 0xF6) || (c >= 0xF8 && c <= 0x2FF) || (c >= 0x370 && c <= 0x37D) ||
         (c >= 0x37F && c <= 0x1FFF) || (c >= 0x200C && c <= 0x200D) || (c >= 0x2070 && c <= 0x218F) ||
         (c >= 0x2C00 && c <= 0x2FEF) || (c >= 0x3001 && c <= 0xD7FF) || (c >= 0xF900 && c <= 0xFDCF) ||
         (c >= 0xFDF0 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0xEFFFF);
}
bool isPnCharsU(char32_t c) { return c == '_' || isPnCharsBase(c); }
bool isPnChars(char32_t c) {
  return isPnCharsU(c) || c == '-' || (c >= '0' && c <= '9') || c == 0xB7 || (c >= 0x300 && c <= 0x36F) ||
         (c >= 0x203F && c <= 0x2040);
}

// A scheme, then ':' (RFC 3986): the IRI is absolute.
bool hasScheme(std::string_view iri) {
  if (iri.empty() || !isAsciiLetter(iri[0])) return false;
  for (char c : iri.substr(1)) {
    if (c == ':') return true;
    if (!isAsciiLetter(c) && !isDigit(c) && c != '+' && c != '-' && c != '.') return false;
  }
  return false;
}

// A user's blank node label that could be one of the fresh ones ("b" and
// digits) gets one 'b' more, so that the two never meet and no two labels merge.
void appendLabel(std::string& out, std::string_view label) {
  size_t bs = 0;
  while (bs < label.size() && label[bs] == 'b') ++bs;
  const bool digitsAfter = bs > 0 && bs < label.size() &&
                           label.find_first_not_of("0123456789", bs) == std::string_view::npos;
  if (digitsAfter) out += 'b';
  out += label;
}

}  // namespace

// Counts the brackets a term is inside; deeper than kMaxNesting is refused
// before the recursion can exhaust the stack.
class TurtleParser::Nesting {
 public:
  explicit Nesting(TurtleParser& parser) : parser_(parser) {
    if (++parser_.depth_ > kMaxNesting) {
      parser_.fail("nesting deeper than " + std::to_string(kMaxNesting) + " levels");
    }
  }
  ~Nesting() { --parser_.depth_; }
  Nesting(const Nesting&) = delete;
  Nesting& operator=(const Nesting&) = delete;

 private:
  TurtleParser& parser_;
};

TurtleParser::TurtleParser(RdfFormat format, std::string baseIri, const RdfReadOptions& options)
    : lineBased_(format == RdfFormat::NTriples || format == RdfFormat::NQuads),
      quads_(format == RdfFormat::NQuads || format == RdfFormat::TriG),
      options_(options),
      base_(std::move(baseIri)),
      graph_(options.defaultGraph) {}

void TurtleParser::parse(std::string_view text, const StatementHandler& onTriple) {
  onTriple_ = &onTriple;
  begin_ = p_ = text.data();
  end_ = text.data() + text.size();
  graph_ = options_.defaultGraph;  // a graph block or a quad cut short by an error leaves its own
  for (;;) {
    arena_.clear();
    skipSpace();
    if (p_ == end_) return;
    statement();
  }
}

void TurtleParser::statement() {
  if (lineBased_) return lineStatement();
  if (directive()) return;
  if (quads_) return trigBlock();
  turtleStatement();
}

// N-Triples and N-Quads: subject predicate object [graph] '.', or VERSION "1.2".
void TurtleParser::lineStatement() {
  if (at("VERSION")) {
    p_ += 7;
    skipSpace();
    if (*p_ != '"') fail("expected a string in double quotes after VERSION");
    return readString(lexical_);
  }
  if (const char* start = p_; *p_ != '<' && *p_ != '_' && (*p_ == '@' || keyword("PREFIX") || keyword("BASE"))) {
    fail(start, "N-Triples and N-Quads have no directives");
  }
  const Ref s = term(kIri | kBlank, "a subject (an IRI or a blank node)");
  skipSpace();
  const Ref p = verb();
  const Ref o = term(kIri | kBlank | kLiteral | kTripleTerm, "an object");
  skipSpace();
  const bool named = quads_ && *p_ != '.';
  if (named) {
    if (*p_ == '"') fail("a graph name must be an IRI or a blank node");
    graph_ = view(term(kIri | kBlank, "a graph name (an IRI or a blank node)"));
  }
  emit(s, p, o);
  if (named) graph_ = options_.defaultGraph;
  expect(".", "expected '.' at the end of the statement");
}

void TurtleParser::turtleStatement() {
  triples();
  expect(".", "missing ';' or '.'");
}

// @prefix, @base, @version (ended by '.') or PREFIX, BASE, VERSION (not).
bool TurtleParser::directive() {
  const bool at = *p_ == '@';
  if (at) ++p_;
  auto named = [&](std::string_view word) {
    if (!at) return keyword(word);
    if (std::strncmp(p_, word.data(), word.size()) != 0) return false;
    const char* after = p_ + word.size();  // "@prefix:" names the empty prefix
    if (after < end_ && (isAsciiLetter(*after) || isDigit(*after) || *after == '-')) return false;
    p_ = after;
    return true;
  };
  if (named("prefix")) {
    skipSpace();
    const std::string name(prefixName());
    expect(":", "expected ':' after the prefix name");
    skipSpace();
    readIriRef(iri_);
    prefixes_[name] = iri_;
  } else if (named("base")) {
    skipSpace();
    readIriRef(iri_);
    base_ = iri_;
  } else if (named("version")) {
    readVersion();
  } else if (at) {
    fail(p_ - 1, "unknown directive");
  } else {
    return false;
  }
  if (at) expect(".", "expected '.' after the directive");
  return true;
}

// The version is a short string, which is not checked: the drafts make it a
// hint, which a reader need not act on.
void TurtleParser::readVersion() {
  skipSpace();
  if ((*p_ != '"' && *p_ != '\'') || at("\"\"\"") || at("'''")) fail("expected a short string after VERSION");
  readString(lexical_);
}

// TriG: a graph block ({ ... }, GRAPH g { ... }, g { ... }) or triples '.'.
void TurtleParser::trigBlock() {
  if (*p_ == '{') return wrappedGraph(options_.defaultGraph);
  if (keyword("GRAPH")) {
    skipSpace();
    return wrappedGraph(std::string(view(term(kIri | kBlank | kAnon, "a graph name (an IRI or a blank node)"))));
  }
  Kind kind;
  const Ref subject = term(kSubject, "a subject or a graph name", &kind);
  skipSpace();
  if ((kind == kIri || kind == kBlank || kind == kAnon) && *p_ == '{') return wrappedGraph(std::string(view(subject)));
  restOfTriples(subject, kind);
  expect(".", "missing ';' or '.'");
}

void TurtleParser::wrappedGraph(std::string graph) {
  expect("{", "expected '{'");
  graph_ = std::move(graph);
  for (;;) {
    skipSpace();
    if (p_ == end_) fail("expected '}' at the end of the graph block");
    if (*p_ == '}') break;
    triples();
    if (eat(".")) continue;
    if (p_ < end_ && *p_ == '}') break;
    fail("expected '.' or '}'");
  }
  ++p_;
  graph_ = options_.defaultGraph;
}

// subject predicateObjectList | [ ... ] predicateObjectList? | << ... >> predicateObjectList?
void TurtleParser::triples() {
  Kind kind;
  const Ref subject = term(kSubject, "a subject", &kind);
  skipSpace();
  restOfTriples(subject, kind);
}

void TurtleParser::restOfTriples(Ref subject, Kind kind) {
  const bool optional = kind == kPropertyList || kind == kReified;
  if (!optional || !(p_ == end_ || *p_ == '.' || *p_ == '}')) predicateObjectList(subject);
}

void TurtleParser::predicateObjectList(Ref subject) {
  for (;;) {
    skipSpace();
    const size_t mark = arena_.size();
    const Ref p = verb();
    objectList(subject, p);
    arena_.resize(mark);
    if (!eat(";")) return;
    while (eat(";")) {
    }
    if (atListEnd()) return;
  }
}

// Where a predicate-object list may end after its ';'.
bool TurtleParser::atListEnd() {
  skipSpace();
  return p_ == end_ || *p_ == '.' || *p_ == ']' || *p_ == '}' || at("|}");
}

void TurtleParser::objectList(Ref subject, Ref predicate) {
  do {
    skipSpace();
    const size_t mark = arena_.size();
    const Ref o = term(kObject, "an object");
    emit(subject, predicate, o);
    annotation(subject, predicate, o);
    arena_.resize(mark);
    skipSpace();
  } while (eat(","));
}

// ( '~' reifier? | '{|' predicateObjectList '|}' )*: a block annotates the
// reifier just named, or a fresh one.
void TurtleParser::annotation(Ref subject, Ref predicate, Ref object) {
  bool named = false;
  Ref current;
  for (skipSpace(); *p_ == '~' || at("{|"); skipSpace()) {
    if (eat("~")) {
      skipSpace();
      current = reifier(subject, predicate, object, true);
      named = true;
      continue;
    }
    Nesting nesting(*this);
    p_ += 2;
    if (!named) current = reifier(subject, predicate, object, false);
    named = false;
    skipSpace();
    if (at("|}")) fail("an annotation block needs a predicate and an object");
    predicateObjectList(current);
    expect("|}", "expected '|}' at the end of the annotation");
  }
}

// The reifier written after '~' (if `given` and one is there) or a fresh
// blank node, stated to reify the triple.
TurtleParser::Ref TurtleParser::reifier(Ref subject, Ref predicate, Ref object, bool given) {
  const bool written = given && p_ < end_ && !at(">>") && !at("{|") && std::strchr("~,;.])}|", *p_) == nullptr;
  const Ref r = written ? term(kIri | kBlank | kAnon, "a reifier (an IRI or a blank node)") : freshBlank();
  emitReifies(r, subject, predicate, object);
  return r;
}

// One term at p_, of one of the kinds `allowed` (else "expected <what>").
TurtleParser::Ref TurtleParser::term(unsigned allowed, const char* what, Kind* kind) {
  skipSpace();
  if (lineBased_) allowed &= kIri | kBlank | kLiteral | kTripleTerm;
  Kind found;
  Ref ref;
  if (p_ == end_) fail(std::string("expected ") + what + ", not the end of the statement");
  const char c = *p_;
  const char* start = p_;
  if (c == '<' && at("<<(")) {
    found = kTripleTerm;
    if (allowed & found) ref = tripleTerm();
  } else if (c == '<' && at("<<")) {
    found = kReified;
    if (allowed & found) ref = reifiedTriple();
  } else if (c == '<') {
    found = kIri;
    ref = iri();
  } else if (c == '_' && at("_:")) {
    found = kBlank;
    ref = blankLabel();
  } else if (c == '[') {
    ++p_;
    skipSpace();
    found = *p_ == ']' ? kAnon : kPropertyList;
    if (found == kAnon) {
      ++p_;
      ref = freshBlank();
    } else if (allowed & found) {
      ref = blankNodePropertyList();
    }
  } else if (c == '(') {
    found = kCollection;
    if (allowed & found) ref = collection();
  } else if (c == '"' || c == '\'') {
    found = kLiteral;
    if (allowed & found) ref = literal();
  } else if (!lineBased_ && (isDigit(c) || c == '+' || c == '-' || (c == '.' && p_ + 1 < end_ && isDigit(p_[1])))) {
    found = kLiteral;
    if (allowed & found) ref = number();
  } else {
    return nameTerm(allowed, what, kind);
  }
  if (!(allowed & found)) {
    const bool turtleOnly = lineBased_ && (found & (kAnon | kPropertyList | kCollection | kReified)) != 0;
    fail(start, std::string("expected ") + what +
                    (turtleOnly ? ": N-Triples and N-Quads have no [ ], ( ) or << >>" : ""));
  }
  if (kind != nullptr) *kind = found;
  return ref;
}

// A prefixed name, or the keywords true and false.
TurtleParser::Ref TurtleParser::nameTerm(unsigned allowed, const char* what, Kind* kind) {
  const char* start = p_;
  if (lineBased_) fail(std::string("expected ") + what + ": N-Triples and N-Quads have no prefixed names, numbers or keywords");
  for (std::string_view word : {"true", "false"}) {
    if (at(word) && !continuesName(p_ + word.size() < end_ ? p_[word.size()] : ' ')) {
      if (!(allowed & kLiteral)) fail(std::string("expected ") + what);
      p_ += word.size();
      if (kind != nullptr) *kind = kLiteral;
      return literalRef(word, {}, kXsdBoolean);
    }
  }
  if (!(allowed & kIri)) fail(std::string("expected ") + what);
  if (kind != nullptr) *kind = kIri;
  size_t length = 0;
  if (*p_ != ':' && !isPnCharsBase(decode(p_, &length))) fail(start, std::string("expected ") + what);
  readPrefixedName(iri_);
  return iriRef(iri_);
}

// A predicate, or 'a' for rdf:type (not in N-Triples).
TurtleParser::Ref TurtleParser::verb() {
  skipSpace();
  if (!lineBased_ && *p_ == 'a' && !continuesName(p_ + 1 < end_ ? p_[1] : ' ')) {
    ++p_;
    return append(kTypeTerm);
  }
  if (at("<<")) fail("a triple term or a reified triple cannot be a predicate");
  return term(kIri, "a predicate (an IRI)");
}

TurtleParser::Ref TurtleParser::iri() {
  readIriRef(iri_);
  return iriRef(iri_);
}

// At the first predicate after '['.
TurtleParser::Ref TurtleParser::blankNodePropertyList() {
  Nesting nesting(*this);
  const Ref node = freshBlank();
  predicateObjectList(node);
  expect("]", "expected `]' at the end of the blank node");
  return node;
}

// ( a b c ): a list of fresh blank nodes, each with rdf:first and rdf:rest.
TurtleParser::Ref TurtleParser::collection() {
  Nesting nesting(*this);
  ++p_;
  skipSpace();
  if (eat(")")) return append(kNilTerm);
  const Ref head = freshBlank();
  const size_t afterHead = arena_.size();
  Ref node = head;
  for (;;) {
    const Ref object =
        term(kObject, "a list item");
    const size_t mark = arena_.size();
    emit(node, append(kFirstTerm), object);
    arena_.resize(mark);
    skipSpace();
    if (p_ == end_) fail("expected ')' at the end of the list");
    const Ref next = *p_ == ')' ? append(kNilTerm) : freshBlank();
    const Ref rest = append(kRestTerm);
    emit(node, rest, next);
    if (eat(")")) return head;
    node = keepOnly(afterHead, next);
  }
}

// << s p o ~ r >>: the reifier, stated to reify the triple term, which is not asserted.
TurtleParser::Ref TurtleParser::reifiedTriple() {
  Nesting nesting(*this);
  p_ += 2;
  skipSpace();
  const size_t mark = arena_.size();
  const Ref s = term(kIri | kBlank | kAnon | kReified, "the subject of a reified triple");
  skipSpace();
  const Ref p = verb();
  skipSpace();
  const Ref o = term(kIri | kBlank | kAnon | kLiteral | kTripleTerm | kReified, "the object of a reified triple");
  skipSpace();
  const bool given = eat("~");
  skipSpace();
  const Ref r = reifier(s, p, o, given);
  expect(">>", "expected '>>' at the end of the reified triple");
  return keepOnly(mark, r);
}

// <<( s p o )>>: a triple term (its subject an IRI or a blank node).
TurtleParser::Ref TurtleParser::tripleTerm() {
  Nesting nesting(*this);
  p_ += 3;
  skipSpace();
  const size_t mark = arena_.size();
  const Ref s = term(kIri | kBlank | kAnon, "the subject of a triple term (an IRI or a blank node)");
  skipSpace();
  const Ref p = verb();
  skipSpace();
  const Ref o = term(kIri | kBlank | kAnon | kLiteral | kTripleTerm, "the object of a triple term");
  skipSpace();
  expect(")>>", "expected ')>>' at the end of the triple term");
  const std::string triple = rdf::tripleTerm(view(s), view(p), view(o));
  arena_.resize(mark);
  return append(triple);
}

TurtleParser::Ref TurtleParser::literal() {
  readString(lexical_);
  language_.clear();
  datatype_.clear();
  skipSpace();  // the tag and the datatype are tokens of their own
  if (p_ < end_ && *p_ == '@') {
    readLanguage(language_);
  } else if (at("^^")) {
    p_ += 2;
    skipSpace();
    if (*p_ == '<') {
      readIriRef(datatype_);
    } else if (lineBased_) {
      fail("expected a datatype IRI");
    } else {
      readPrefixedName(datatype_);
    }
    if (datatype_ == rdf::kRdfLangString || datatype_ == kRdfDirLangString) {
      fail("a literal with a language tag is written with '@', not with its datatype");
    }
  }
  return literalRef(lexical_, language_, datatype_);
}

// [+-]? digits, a decimal or a double, as written.
TurtleParser::Ref TurtleParser::number() {
  const char* start = p_;
  if (*p_ == '+' || *p_ == '-') ++p_;
  auto digits = [&] {
    const char* from = p_;
    while (p_ < end_ && isDigit(*p_)) ++p_;
    return p_ > from;
  };
  const bool whole = digits();
  const std::string* type = &kXsdInteger;
  // "1." is the integer 1 before a '.'; "1.e3" and "1.5" go on.
  if (p_ + 1 < end_ && *p_ == '.' && (isDigit(p_[1]) || (whole && (p_[1] == 'e' || p_[1] == 'E')))) {
    ++p_;
    digits();
    type = &kXsdDecimal;
  } else if (!whole) {
    fail(start, "bad number");
  }
  if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
    ++p_;
    if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
    if (!digits()) fail(start, "bad number: no digits in its exponent");
    type = &kXsdDouble;
  }
  return literalRef(std::string_view(start, p_ - start), {}, *type);
}

// The rest of a blank node label or prefix after its first character:
// PN_CHARS and '.', but not ending with '.'.
void TurtleParser::skipNameRest() {
  const char* lastGood = p_;
  size_t length = 0;
  while (p_ < end_) {
    const char32_t c = decode(p_, &length);
    if (c != '.' && !isPnChars(c)) break;
    p_ += length;
    if (c != '.') lastGood = p_;
  }
  p_ = lastGood;
}

TurtleParser::Ref TurtleParser::blankLabel() {
  p_ += 2;
  const char* start = p_;
  size_t length = 0;
  if (p_ == end_ || !(isPnCharsU(decode(p_, &length)) || isDigit(*p_))) fail("bad blank node label");
  p_ += length;
  skipNameRest();
  const size_t at = arena_.size();
  arena_ += "_:";
  arena_ += options_.blankNodePrefix;
  const std::string_view label(start, p_ - start);
  if (lineBased_) {
    arena_ += label;  // N-Triples makes no labels of its own
  } else {
    appendLabel(arena_, label);
  }
  return {at, arena_.size() - at};
}

TurtleParser::Ref TurtleParser::freshBlank() {
  const size_t at = arena_.size();
  arena_ += "_:";
  arena_ += options_.blankNodePrefix;
  arena_ += 'b';
  arena_ += std::to_string(++freshBlanks_);
  return {at, arena_.size() - at};
}

// <...>, escapes decoded, resolved against the base (N-Triples: absolute only).
void TurtleParser::readIriRef(std::string& out) {
  if (p_ == end_ || *p_ != '<') fail("expected an IRI");
  out.clear();
  const char* start = ++p_;
  for (;;) {
    const char* run = p_;
    while (p_ < end_ && kPlainInIri[static_cast<unsigned char>(*p_)]) ++p_;
    out.append(run, p_ - run);
    if (p_ == end_) fail("the input ends inside an IRI");
    if (*p_ == '>') break;
    if (*p_ != '\\') fail("invalid IRI character");
    readEscape(out, true);
  }
  ++p_;
  if (hasScheme(out)) return;
  if (lineBased_) fail(start - 1, "missing IRI scheme: N-Triples and N-Quads take absolute IRIs only");
  out = rdf::resolveIri(base_, out);
}

std::string_view TurtleParser::prefixName() {
  const char* start = p_;
  size_t length = 0;
  if (p_ < end_ && *p_ != ':') {
    if (!isPnCharsBase(decode(p_, &length))) fail("bad prefix name");
    p_ += length;
    skipNameRest();
  }
  return {start, static_cast<size_t>(p_ - start)};
}

// prefix:local, expanded; the local part's escapes (\~) lose their backslash.
void TurtleParser::readPrefixedName(std::string& out) {
  const char* start = p_;
  const std::string_view prefix = prefixName();
  if (p_ == end_ || *p_ != ':') fail(start, "expected a prefixed name");
  ++p_;
  const auto found = prefixes_.find(prefix);
  if (found == prefixes_.end()) fail(start, "undefined prefix in '" + std::string(prefix) + ":'");
  out = found->second;
  size_t good = out.size();
  const char* lastGood = p_;
  for (bool first = true; p_ < end_; first = false) {
    size_t length = 1;
    const char c = *p_;
    if (c == '%') {
      if (p_ + 2 >= end_ || !std::isxdigit(static_cast<unsigned char>(p_[1])) ||
          !std::isxdigit(static_cast<unsigned char>(p_[2]))) {
        fail("bad %-escape in a prefixed name");
      }
      out.append(p_, 3);
      p_ += 3;
    } else if (c == '\\') {
      if (p_ + 1 >= end_ || std::strchr("_~.-!$&'()*+,;=/?#@%", p_[1]) == nullptr || p_[1] == '\0') {
        fail("bad escape in a prefixed name");
      }
      out += p_[1];
      p_ += 2;
    } else {
      const char32_t code = decode(p_, &length);
      const bool ok = c == ':' || isPnChars(code) || (c == '.' && !first);
      if (!ok || (first && c == '-') || (first && code == 0xB7) ||
          (first && ((code >= 0x300 && code <= 0x36F) || (code >= 0x203F && code <= 0x2040)))) {
        break;
      }
      out.append(p_, length);
      p_ += length;
      if (c == '.') continue;
    }
    good = out.size();
    lastGood = p_;
  }
  out.resize(good);  // a local name does not end with '.'
  p_ = lastGood;
}

// A quoted string, short or long, escapes decoded.
void TurtleParser::readString(std::string& out) {
  out.clear();
  const char quote = *p_;
  const bool isLong = !lineBased_ && p_ + 2 < end_ && p_[1] == quote && p_[2] == quote;
  if (lineBased_ && quote == '\'') fail("N-Triples and N-Quads have no single-quoted strings");
  p_ += isLong ? 3 : 1;
  for (;;) {
    if (p_ == end_) fail("the input ends inside a string");
    const char c = *p_;
    if (c == quote) {
      if (!isLong) break;
      if (p_ + 2 < end_ && p_[1] == quote && p_[2] == quote) break;
    }
    if (c == '\\') {
      readEscape(out, false);
      continue;
    }
    if (!isLong && (c == '\n' || c == '\r')) fail("line end in short string");
    out += c;
    ++p_;
  }
  p_ += isLong ? 3 : 1;
}

// @lang, @lang-region, @lang--ltr: subtags of at most 8 letters or digits
// (BCP 47), a base direction ltr or rtl.
void TurtleParser::readLanguage(std::string& out) {
  const char* start = ++p_;
  auto subtag = [&](bool letters) {
    const char* from = p_;
    while (p_ < end_ && (isAsciiLetter(*p_) || (!letters && isDigit(*p_)))) ++p_;
    if (p_ == from) fail(start, "unexpected character in the language tag");
    if (p_ - from > 8) fail(from, "a language subtag has at most 8 characters");
  };
  subtag(true);
  while (p_ + 1 < end_ && *p_ == '-' && p_[1] != '-') {
    ++p_;
    subtag(false);
  }
  const char* directionAt = nullptr;
  if (p_ + 1 < end_ && *p_ == '-' && p_[1] == '-') {
    directionAt = p_ + 2;
    p_ += 2;
    while (p_ < end_ && isAsciiLetter(*p_)) ++p_;
    const std::string_view direction(directionAt, p_ - directionAt);
    if (direction != "ltr" && direction != "rtl") fail(directionAt, "a base direction is ltr or rtl");
  }
  out.assign(start, p_ - start);
}

// \uXXXX, \UXXXXXXXX, and in strings \t \b \n \r \f \" \' \\.
void TurtleParser::readEscape(std::string& out, bool inIri) {
  ++p_;
  const char kind = p_ < end_ ? *p_ : '\0';
  if (kind == 'u' || kind == 'U') {
    ++p_;
    const char32_t code = readHex(kind == 'u' ? 4 : 8);
    if (code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) fail(p_ - (kind == 'u' ? 6 : 10), "invalid escape: not a character");
    if (inIri && (code <= 0x20 || (code < 0x80 && std::strchr("<>\"{}|^`\\", static_cast<char>(code)) != nullptr))) {
      fail(p_ - (kind == 'u' ? 6 : 10), "invalid IRI character (escaped)");
    }
    rdf::appendUtf8(out, code);
    return;
  }
  const char* escapes = "tbnrf\"'\\";
  const char* decoded = "\t\b\n\r\f\"'\\";
  const char* found = kind == '\0' ? nullptr : std::strchr(escapes, kind);
  if (inIri || found == nullptr) fail("invalid escape");
  out += decoded[found - escapes];
  ++p_;
}

char32_t TurtleParser::readHex(size_t digits) {
  char32_t code = 0;
  for (size_t i = 0; i < digits; ++i, ++p_) {
    if (p_ == end_ || !std::isxdigit(static_cast<unsigned char>(*p_))) fail("invalid escape: expected a hex digit");
    const char h = *p_;
    code = code * 16 + static_cast<char32_t>(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
  }
  return code;
}

void TurtleParser::emit(Ref s, Ref p, Ref o) {
  ++triples_;
  (*onTriple_)(RdfStatementView{view(s), view(p), view(o), graph_});
}

void TurtleParser::emitReifies(Ref reifier, Ref s, Ref p, Ref o) {
  const size_t mark = arena_.size();
  const std::string triple = rdf::tripleTerm(view(s), view(p), view(o));
  const Ref reifies = append(kReifiesTerm);
  emit(reifier, reifies, append(triple));
  arena_.resize(mark);
}

TurtleParser::Ref TurtleParser::iriRef(std::string_view iri) {
  const size_t at = arena_.size();
  rdf::appendIri(arena_, iri);
  return {at, arena_.size() - at};
}

TurtleParser::Ref TurtleParser::literalRef(std::string_view lexical, std::string_view language,
                                           std::string_view datatype) {
  const size_t at = arena_.size();
  rdf::appendLiteral(arena_, lexical, language, datatype);
  return {at, arena_.size() - at};
}

TurtleParser::Ref TurtleParser::append(std::string_view text) {
  const size_t at = arena_.size();
  arena_ += text;
  return {at, text.size()};
}

// Moves `ref`, the last thing in the arena, down to `mark`, dropping what was between.
TurtleParser::Ref TurtleParser::keepOnly(size_t mark, Ref ref) {
  arena_.erase(mark, ref.at - mark);
  return {mark, ref.size};
}

void TurtleParser::skipSpace() {
  while (p_ < end_) {
    const char c = *p_;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++p_;
    } else if (c == '#') {
      while (p_ < end_ && *p_ != '\n' && *p_ != '\r') ++p_;
    } else {
      return;
    }
  }
}

bool TurtleParser::at(std::string_view token) const {
  if (static_cast<size_t>(end_ - p_) < token.size()) return false;
  for (size_t i = 0; i < token.size(); ++i) {  // tokens of 1-3 bytes: no call to memcmp
    if (p_[i] != token[i]) return false;
  }
  return true;
}

bool TurtleParser::eat(std::string_view token) {
  skipSpace();
  if (!at(token)) return false;
  p_ += token.size();
  return true;
}

void TurtleParser::expect(std::string_view token, const char* message) {
  if (!eat(token)) fail(message);
}

// A keyword of any case (PREFIX, prefix) that no name continues.
bool TurtleParser::keyword(std::string_view word) {
  if (static_cast<size_t>(end_ - p_) < word.size() || strncasecmp(p_, word.data(), word.size()) != 0) return false;
  const char* after = p_ + word.size();
  if (after < end_ && continuesName(*after)) return false;
  p_ = after;
  return true;
}

void TurtleParser::fail(const char* where, std::string message) const {
  throw TurtleSyntaxError{static_cast<size_t>(where - begin_), std::move(message)};
}

}  // namespace gsparql
