#pragma once
// Internals of the result writers, shared between them and visible to tests.
#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

#include "engine/results/result_writer.h"

namespace gsparql::results {

// The bytes a writer must treat specially (escape, or quote for): a table
// lookup a byte, so that plain text is scanned fast and appended in runs.
class ByteSet {
 public:
  template <typename Predicate>
  constexpr explicit ByteSet(Predicate contains) {
    for (int c = 0; c < 256; ++c) members_[c] = contains(static_cast<unsigned char>(c));
  }
  constexpr bool contains(unsigned char c) const { return members_[c]; }
  // The first position at or after `from` whose byte is in the set, or s.size().
  size_t findIn(std::string_view s, size_t from = 0) const {
    const auto* bytes = reinterpret_cast<const unsigned char*>(s.data());
    while (from < s.size() && !members_[bytes[from]]) ++from;
    return from;
  }

 private:
  bool members_[256] = {};
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

std::unique_ptr<ResultWriter> makeTsvWriter(std::ostream& out);
std::unique_ptr<ResultWriter> makeCsvWriter(std::ostream& out);
std::unique_ptr<ResultWriter> makeJsonWriter(std::ostream& out);
std::unique_ptr<ResultWriter> makeXmlWriter(std::ostream& out);
std::unique_ptr<ResultWriter> makeTableWriter(std::ostream& out, TableOptions options = {});

// Display width of UTF-8 text in a terminal: one column per code point
// (East Asian wide characters and combining marks are not special-cased).
size_t displayWidth(std::string_view utf8);

}  // namespace gsparql::results
