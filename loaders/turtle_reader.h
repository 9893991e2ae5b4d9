#pragma once
// A reader of the Turtle family as RDF 1.2 defines it: Turtle, TriG,
// N-Triples and N-Quads, each held to its own grammar (an N-Triples line
// with a prefixed name is refused), with triple terms <<( s p o )>>,
// reified triples << s p o ~ r >>, annotations {| ... |}, VERSION and
// directional language tags "x"@ar--rtl.
//
// It reads the pieces that StatementSplitter cuts (one or more whole
// statements each), so that a lenient read can drop a bad piece and line-based
// input can be read in chunks on all cores; prefixes, the base and the count
// of fresh blank nodes carry over from piece to piece.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "gsparql/load.h"
#include "loaders/rdf_reader.h"

namespace gsparql {

// What is wrong, at a byte offset in the piece being read.
struct TurtleSyntaxError {
  size_t offset;
  std::string message;
};

class TurtleParser {
 public:
  // `baseIri`: where relative IRIs resolve (Turtle and TriG only).
  TurtleParser(RdfFormat format, std::string baseIri, const RdfReadOptions& options);

  // Reads the statements of `text` (followed by a NUL byte, as
  // StatementSplitter leaves it), handing each triple or quad to `onTriple`;
  // throws TurtleSyntaxError at the first error.
  void parse(std::string_view text, const StatementHandler& onTriple);

  // Triples handed over so far.
  uint64_t triplesRead() const { return triples_; }

 private:
  // A term written into arena_: terms under construction nest, and release
  // what they no longer need by truncating it.
  struct Ref {
    size_t at = 0, size = 0;
  };
  enum Kind : unsigned {
    kIri = 1, kBlank = 2, kAnon = 4, kPropertyList = 8, kCollection = 16,
    kLiteral = 32, kTripleTerm = 64, kReified = 128,
  };
  static constexpr unsigned kSubject = kIri | kBlank | kAnon | kPropertyList | kCollection | kReified;
  static constexpr unsigned kObject = kSubject | kLiteral | kTripleTerm;
  class Nesting;

  void statement();
  void lineStatement();
  void turtleStatement();
  bool directive();
  void trigBlock();
  void wrappedGraph(std::string graph);
  void triples();
  void restOfTriples(Ref subject, Kind kind);
  void predicateObjectList(Ref subject);
  bool atListEnd();
  void objectList(Ref subject, Ref predicate);
  void annotation(Ref subject, Ref predicate, Ref object);
  Ref term(unsigned allowed, const char* what, Kind* kind = nullptr);
  Ref verb();
  Ref blankNodePropertyList();
  Ref collection();
  Ref reifiedTriple();
  Ref tripleTerm();
  Ref reifier(Ref subject, Ref predicate, Ref object, bool given);
  Ref literal();
  Ref literalRef(std::string_view lexical, std::string_view language, std::string_view datatype);
  Ref iriRef(std::string_view iri);
  Ref number();
  Ref nameTerm(unsigned allowed, const char* what, Kind* kind);
  Ref blankLabel();
  void skipNameRest();
  Ref freshBlank();
  Ref iri();

  void readIriRef(std::string& out);
  void readPrefixedName(std::string& out);
  std::string_view prefixName();
  void readString(std::string& out);
  void readLanguage(std::string& out);
  void readEscape(std::string& out, bool inIri);
  char32_t readHex(size_t digits);
  void readVersion();

  void emit(Ref s, Ref p, Ref o);
  void emitReifies(Ref reifier, Ref s, Ref p, Ref o);
  Ref append(std::string_view text);
  Ref keepOnly(size_t mark, Ref ref);
  std::string_view view(Ref ref) const { return std::string_view(arena_).substr(ref.at, ref.size); }

  void skipSpace();
  bool at(std::string_view token) const;
  bool eat(std::string_view token);
  void expect(std::string_view token, const char* message);
  bool keyword(std::string_view word);
  [[noreturn]] void fail(const char* where, std::string message) const;
  [[noreturn]] void fail(std::string message) const { fail(p_, std::move(message)); }

  const bool lineBased_;  // N-Triples and N-Quads
  const bool quads_;      // N-Quads and TriG
  const RdfReadOptions& options_;
  std::string base_;
  // Looked up by a view of the name as written, without a copy.
  struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view name) const { return std::hash<std::string_view>{}(name); }
  };
  std::unordered_map<std::string, std::string, NameHash, std::equal_to<>> prefixes_;
  uint64_t freshBlanks_ = 0;
  uint64_t triples_ = 0;
  int depth_ = 0;
  std::string graph_;  // of the statements being read, as a term; empty: the default graph
  const StatementHandler* onTriple_ = nullptr;
  const char* begin_ = nullptr;
  const char* p_ = nullptr;
  const char* end_ = nullptr;
  std::string arena_;
  std::string iri_, lexical_, datatype_, language_;  // scratch
};

}  // namespace gsparql
