#pragma once
// Internals of the result writers, shared between them and visible to tests.
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

#include "engine/results/result_writer.h"

namespace gsparql::results {

// The digits of the writers' hexadecimal escapes.
inline constexpr char kHex[] = "0123456789ABCDEF";

// The bytes a writer must treat specially (escape, or quote for): the
// control characters below 0x20 or not, and up to six more bytes. Text is
// scanned 16 bytes at a time (SSE2, part of every x86-64), so that plain
// text costs a few compares per 16 bytes and is appended in runs.
class ByteSet {
 public:
  constexpr ByteSet(bool controls, std::initializer_list<unsigned char> more) : controls_(controls) {
    for (unsigned char c : more) more_[count_++] = c;
  }
  constexpr bool contains(unsigned char c) const {
    if (controls_ && c < 0x20) return true;
    for (int i = 0; i < count_; ++i) {
      if (more_[i] == c) return true;
    }
    return false;
  }
  // The first position at or after `from` whose byte is in the set, or s.size().
  size_t findIn(std::string_view s, size_t from = 0) const {
#if defined(__SSE2__)
    for (; from + 16 <= s.size(); from += 16) {
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + from));
      __m128i hits = controls_ ? _mm_cmpeq_epi8(_mm_max_epu8(bytes, _mm_set1_epi8(0x1F)), _mm_set1_epi8(0x1F))
                               : _mm_setzero_si128();
      for (int i = 0; i < count_; ++i) {
        hits = _mm_or_si128(hits, _mm_cmpeq_epi8(bytes, _mm_set1_epi8(static_cast<char>(more_[i]))));
      }
      if (const int mask = _mm_movemask_epi8(hits)) return from + static_cast<size_t>(__builtin_ctz(mask));
    }
#endif
    while (from < s.size() && !contains(static_cast<unsigned char>(s[from]))) ++from;
    return from;
  }

 private:
  bool controls_;
  int count_ = 0;
  unsigned char more_[6] = {};
};

// Appends `s` to `out`, bytes in `special` replaced by what `escape(c, s, i,
// out)` appends; escape returns how many bytes of `s` from i it consumed.
template <typename Escape>
void appendEscaped(std::string& out, std::string_view s, const ByteSet& special, Escape escape) {
  size_t run = 0;
  for (size_t i = special.findIn(s); i < s.size(); i = special.findIn(s, run)) {
    out.append(s.data() + run, i - run);
    run = i + escape(static_cast<unsigned char>(s[i]), s, i, out);
  }
  out.append(s.data() + run, s.size() - run);
}

// Collects output in a string and hands it to the stream in large blocks:
// one virtual call per 64 KiB instead of one per term.
class OutBuffer {
 public:
  explicit OutBuffer(std::ostream& out) : out_(out) { buf_.reserve(kBlock + 4096); }
  ~OutBuffer() { flush(); }
  OutBuffer(const OutBuffer&) = delete;
  OutBuffer& operator=(const OutBuffer&) = delete;

  void put(char c) { buf_ += c; }
  void put(std::string_view s) { buf_.append(s.data(), s.size()); }
  // Call between rows.
  void maybeFlush() {
    if (buf_.size() >= kBlock) flush();
  }
  void flush() {
    if (!buf_.empty()) out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    buf_.clear();
    out_.flush();
  }
  std::string& str() { return buf_; }

 private:
  static constexpr size_t kBlock = 64 * 1024;
  std::ostream& out_;
  std::string buf_;
};

// Jena 4.5 writes an xsd:integer, xsd:decimal, xsd:double or xsd:boolean
// literal in Turtle's abbreviated form when its lexical form has the shape of
// the Turtle token (INTEGER, DECIMAL, DOUBLE, true/false). Returns true when
// gsparql does so; see docs/result-formats.md for the two cases where Jena's
// check is looser than the Turtle grammar and gsparql follows the grammar.
bool abbreviatesAsTurtle(std::string_view lexical, std::string_view datatype);

// Appends `term` (rdf/term.h form) as the TSV writer writes it: Jena's
// Turtle form (bare numbers and booleans, \t \n \r \f \" \\ escapes).
void appendTsvTerm(std::string& out, std::string_view term);

struct TableOptions {
  size_t sizingRows = 1000;  // rows buffered to size the columns
  size_t maxWidth = 60;      // display columns of the widest cell; longer ones end in "…"
  Prefixes prefixes;         // IRIs under one of these are shown as prefixed names
};

// `ex:local` for an IRI term `<ns local>` when a prefix declares `ns` and
// `local` is a valid Turtle local name (conservatively: letters, digits, '_',
// '-', and inner '.'); nullopt otherwise.
std::optional<std::string> prefixedName(std::string_view iriTerm, const Prefixes& prefixes);

// JSON-LD: holds the graph until end() (engine/results/jsonld_writer.cpp).
std::unique_ptr<GraphWriter> makeJsonLdWriter(std::ostream& out, const Prefixes& prefixes);

std::unique_ptr<ResultWriter> makeTsvWriter(std::ostream& out);
std::unique_ptr<ResultWriter> makeCsvWriter(std::ostream& out);
std::unique_ptr<ResultWriter> makeJsonWriter(std::ostream& out);
std::unique_ptr<ResultWriter> makeXmlWriter(std::ostream& out);
std::unique_ptr<ResultWriter> makeTableWriter(std::ostream& out, TableOptions options = {});

// Display width of UTF-8 text in a terminal: one column per code point
// (East Asian wide characters and combining marks are not special-cased).
size_t displayWidth(std::string_view utf8);

}  // namespace gsparql::results
