#include "loaders/rdfxml_reader.h"

#include <libxml/parser.h>
#include <libxml/xmlerror.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>

#include "gsparql/error.h"
#include "loaders/raptor_library.h"
#include "loaders/statement_splitter.h"
#include "rdf/term.h"

namespace gsparql {
namespace {

constexpr size_t kBlockBytes = size_t{64} << 10;
// The text kept to find the column of an error Raptor gives only a line for.
constexpr size_t kWindowBytes = size_t{256} << 10;

struct BadTriple {
  std::string message;
  std::string token;  // what to look for on the error's line, or the lines above it
};

std::string_view view(const unsigned char* text, size_t length) {
  return {reinterpret_cast<const char*>(text), length};
}

// What an IRI of the rdf/term.h form may not hold (RFC 3987; N-Triples'
// IRIREF): Raptor passes them through.
bool isBadIri(std::string_view iri) {
  if (iri.find_first_of("<>\"{}|^`\\") != std::string_view::npos) return true;
  return std::any_of(iri.begin(), iri.end(), [](char c) { return static_cast<unsigned char>(c) <= 0x20; });
}

bool hasScheme(std::string_view iri) {
  const size_t colon = iri.find(':');
  if (colon == std::string_view::npos || colon == 0 || !std::isalpha(static_cast<unsigned char>(iri[0]))) return false;
  return std::all_of(iri.begin(), iri.begin() + static_cast<std::ptrdiff_t>(colon), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.';
  });
}

// The last few hundred KiB of the input, with the number of their first
// line, to find a column on the line of an error.
class TextWindow {
 public:
  void append(std::string_view block) {
    if (text_.size() + block.size() > kWindowBytes && text_.size() > kWindowBytes / 2) {
      size_t cut = text_.find('\n', text_.size() - kWindowBytes / 2);
      if (cut != std::string::npos) {
        ++cut;
        firstLine_ += static_cast<uint64_t>(std::count(text_.begin(), text_.begin() + static_cast<std::ptrdiff_t>(cut), '\n'));
        text_.erase(0, cut);
      }
    }
    text_.append(block);
  }

  // Line `line` of the input, if the window still holds it.
  std::optional<std::string_view> line(uint64_t line) const {
    if (line < firstLine_) return std::nullopt;
    size_t start = 0;
    for (uint64_t at = firstLine_; at < line; ++at) {
      start = text_.find('\n', start);
      if (start == std::string::npos) return std::nullopt;
      ++start;
    }
    const size_t end = std::min(text_.find('\n', start), text_.size());
    return std::string_view(text_).substr(start, end - start);
  }

 private:
  std::string text_;
  uint64_t firstLine_ = 1;
};

// A scan of the bytes before Raptor sees them, for two things Raptor cannot
// be left to. Nesting: Raptor finds an element's base IRI by walking up all
// the elements it is in, several times an element
// (raptor_sax2_inscope_base_uri): 5,000 nested elements take 0.6 s, 20,000
// a minute; so it is bounded, as Turtle's is (kMaxNesting). External
// entities: not loaded (nothing is fetched), libxml2 expands a reference to
// one to nothing, without a word; so their declarations (<!ENTITY x SYSTEM
// "..."> or PUBLIC, parameter entities too) are refused where they are. The
// scan follows start and end tags, and steps over comments, CDATA sections,
// processing instructions, the DOCTYPE and quoted attribute values.
class MarkupGuard {
 public:
  // How much of `block` may go to Raptor: all of it, or up to the '<' of the
  // first element nested too deep or external entity declaration (then
  // tooDeep() or externalEntity() says where it is).
  size_t allowed(std::string_view block) {
    const uint64_t blockStart = offset_;
    for (size_t i = 0; i < block.size(); ++i, ++offset_) {
      const char c = block[i];
      if (step(c)) return tagOffset_ > blockStart ? static_cast<size_t>(tagOffset_ - blockStart) : 0;
      if (c == '\n') {
        ++where_.line;
        where_.column = 1;
      } else {
        ++where_.column;
      }
    }
    return block.size();
  }
  std::optional<TextPosition> tooDeep() const { return tooDeep_; }
  std::optional<TextPosition> externalEntity() const { return externalEntity_; }

 private:
  enum class State { Text, Open, Bang, StartTag, Quoted, EndTag, Comment, CData, Instruction, Doctype, DoctypeQuoted };

  // Takes one byte; true when it closes a start tag nested too deep.
  bool step(char c) {
    switch (state_) {
      case State::Text:
        if (c == '<') {
          state_ = State::Open;
          tagStart_ = where_;
          tagOffset_ = offset_;
        }
        return false;
      case State::Open:
        if (c == '/') {
          state_ = State::EndTag;
        } else if (c == '?') {
          state_ = State::Instruction;
        } else if (c == '!') {
          state_ = State::Bang;
          bang_.clear();
        } else {
          state_ = State::StartTag;
          slash_ = false;
        }
        return false;
      case State::Bang:  // <!-- , <![CDATA[ , <!DOCTYPE
        bang_ += c;
        if (bang_ == "--") {
          state_ = State::Comment;
          run_ = 0;
        } else if (bang_ == "[CDATA[") {
          state_ = State::CData;
          run_ = 0;
        } else if (bang_.size() >= 7 || (bang_ != std::string_view("[CDATA[").substr(0, bang_.size()) && bang_ != "-")) {
          state_ = State::Doctype;  // DOCTYPE, or a declaration in its internal subset
          if (!inDoctype_) brackets_ = c == '[' ? 1 : 0;
          declaration_ = inDoctype_;
          words_ = bang_;
          if (c == '>') state_ = afterDeclaration();
        }
        return false;
      case State::StartTag:
        if (c == '"' || c == '\'') {
          quote_ = c;
          state_ = State::Quoted;
        } else if (c == '>') {
          state_ = inDoctype_ ? State::Doctype : State::Text;
          if (!slash_ && ++depth_ > kMaxNesting) {
            tooDeep_ = tagStart_;
            return true;
          }
        } else {
          slash_ = c == '/';
        }
        return false;
      case State::Quoted:
        if (c == quote_) state_ = State::StartTag;
        return false;
      case State::EndTag:
        if (c == '>') {
          state_ = State::Text;
          if (depth_ > 0) --depth_;
        }
        return false;
      case State::Comment:  // ends at -->
        if (c == '>' && run_ >= 2) state_ = inDoctype_ ? State::Doctype : State::Text;
        run_ = c == '-' ? run_ + 1 : 0;
        return false;
      case State::CData:  // ends at ]]>
        if (c == '>' && run_ >= 2) state_ = State::Text;
        run_ = c == ']' ? run_ + 1 : 0;
        return false;
      case State::Instruction:  // ends at ?>
        if (c == '>' && previous_ == '?') state_ = inDoctype_ ? State::Doctype : State::Text;
        previous_ = c;
        return false;
      case State::Doctype:
        inDoctype_ = brackets_ > 0;
        if (declaration_ && c == '>') {
          declaration_ = false;
          if (words_.starts_with("ENTITY") && declaresExternal()) {
            externalEntity_ = tagStart_;
            return true;
          }
        }
        if (declaration_ && c != '"' && c != '\'') words_ += c;
        if (c == '"' || c == '\'') {
          quote_ = c;
          state_ = State::DoctypeQuoted;
        } else if (c == '[') {
          ++brackets_;
          inDoctype_ = true;
        } else if (c == ']') {
          if (brackets_ > 0) --brackets_;
        } else if (c == '<' && brackets_ > 0) {
          state_ = State::Open;  // a declaration, comment or instruction of the internal subset
          inDoctype_ = true;
          tagStart_ = where_;
          tagOffset_ = offset_;
        } else if (c == '>') {
          state_ = afterDeclaration();
        }
        return false;
      case State::DoctypeQuoted:
        if (c == quote_) state_ = State::Doctype;
        return false;
    }
    return false;
  }

  // Whether the <!ENTITY declaration just closed has SYSTEM or PUBLIC
  // outside its quoted parts (`words_`: its text, quoted parts left out).
  bool declaresExternal() const {
    std::string word;
    for (char c : words_ + " ") {
      if (std::isspace(static_cast<unsigned char>(c))) {
        if (word == "SYSTEM" || word == "PUBLIC") return true;
        word.clear();
      } else {
        word += c;
      }
    }
    return false;
  }

  // After a '>' that ends a declaration: back in the internal subset, or in the text.
  State afterDeclaration() {
    if (brackets_ > 0) return State::Doctype;
    inDoctype_ = false;
    return State::Text;
  }

  State state_ = State::Text;
  TextPosition where_;     // of the byte being stepped over
  TextPosition tagStart_;  // of the last '<'
  uint64_t tagOffset_ = 0;  // its byte in the input
  uint64_t offset_ = 0;     // of the byte being stepped over
  std::string bang_;
  char quote_ = '"';
  char previous_ = 0;
  int run_ = 0;
  int brackets_ = 0;
  bool inDoctype_ = false;
  bool slash_ = false;
  bool declaration_ = false;  // in a declaration of the internal subset
  std::string words_;         // its text outside quotes
  int depth_ = 0;
  std::optional<TextPosition> tooDeep_;
  std::optional<TextPosition> externalEntity_;
};

// One read: a Raptor world and parser of its own (Raptor's state is per
// world, so reads on several threads do not meet), with C callbacks that
// must not throw: they record what went wrong, and run() throws after
// Raptor returns.
class RaptorSession {
 public:
  RaptorSession(InputStream& input, const std::string& name, const std::string& baseIri,
                const StatementHandler& onStatement, const RdfReadOptions& options)
      : input_(input), name_(name), onStatement_(onStatement), options_(options) {
    // libxml2 is set up once, before any thread parses (it is not safe to do concurrently).
    static std::once_flag libxmlReady;
    std::call_once(libxmlReady, [] { xmlInitParser(); });
    world_ = raptor_.raptor_new_world_internal(RAPTOR_VERSION);  // what the raptor_new_world() macro calls
    if (world_ == nullptr) throw LoadError(name + ": cannot start the RDF/XML reader");
    try {
      setUp(name, baseIri);
    } catch (...) {
      release();
      throw;
    }
  }

  void setUp(const std::string& name, const std::string& baseIri) {
    raptor_.raptor_world_set_log_handler(world_, this, &RaptorSession::onLog);
    raptor_.raptor_world_set_generate_bnodeid_handler(world_, this, &RaptorSession::onBlankNodeId);
    if (raptor_.raptor_world_open(world_) != 0) throw LoadError(name + ": cannot start the RDF/XML reader");
    parser_ = raptor_.raptor_new_parser(world_, "rdfxml");
    if (parser_ == nullptr) throw LoadError(name + ": Raptor has no RDF/XML parser");
    // Nothing is ever fetched: not the network, not files, not external
    // entities (XXE); and any URI Raptor would fetch anyway is refused.
    raptor_.raptor_parser_set_option(parser_, RAPTOR_OPTION_NO_NET, nullptr, 1);
    raptor_.raptor_parser_set_option(parser_, RAPTOR_OPTION_NO_FILE, nullptr, 1);
    raptor_.raptor_parser_set_option(parser_, RAPTOR_OPTION_LOAD_EXTERNAL_ENTITIES, nullptr, 0);
    raptor_.raptor_parser_set_uri_filter(parser_, &RaptorSession::refuseUri, this);
    // Language tags as written, as the other syntaxes keep them.
    raptor_.raptor_parser_set_option(parser_, RAPTOR_OPTION_NORMALIZE_LANGUAGE, nullptr, 0);
    raptor_.raptor_parser_set_statement_handler(parser_, this, &RaptorSession::onTriple);
    base_ = raptor_.raptor_new_uri(world_, reinterpret_cast<const unsigned char*>(baseIri.c_str()));
    if (base_ == nullptr) throw LoadError(name + ": bad base IRI '" + baseIri + "'");
  }
  ~RaptorSession() { release(); }
  RaptorSession(const RaptorSession&) = delete;
  RaptorSession& operator=(const RaptorSession&) = delete;

  void release() {
    if (base_ != nullptr) raptor_.raptor_free_uri(base_);
    if (parser_ != nullptr) raptor_.raptor_free_parser(parser_);
    if (world_ != nullptr) raptor_.raptor_free_world(world_);
    base_ = nullptr;
    parser_ = nullptr;
    world_ = nullptr;
  }

  RdfReadReport run() {
    if (raptor_.raptor_parser_parse_start(parser_, base_) != 0) {
      throw LoadError(name_ + ": cannot start reading RDF/XML");
    }
    std::unique_ptr<char[]> block(new char[kBlockBytes]);
    bool end = false;
    while (!end && !stopped_) {
      size_t n = input_.read(block.get(), kBlockBytes);
      end = n == 0;
      window_.append(std::string_view(block.get(), n));
      n = markup_.allowed(std::string_view(block.get(), n));
      xmlResetLastError();
      const int last = end && !markup_.tooDeep() && !markup_.externalEntity() ? 1 : 0;
      const int status =
          raptor_.raptor_parser_parse_chunk(parser_, reinterpret_cast<const unsigned char*>(block.get()), n, last);
      if (failure_) std::rethrow_exception(failure_);
      if (const std::optional<TextPosition> deep = markup_.tooDeep(); deep && !stopped_) {
        report(*deep, "elements nested deeper than " + std::to_string(kMaxNesting) + " levels");
        stopped_ = true;
      }
      if (const std::optional<TextPosition> entity = markup_.externalEntity(); entity && !stopped_) {
        report(*entity, "an external entity (<!ENTITY ... SYSTEM or PUBLIC>) is refused: nothing outside the document is read");
        stopped_ = true;
      }
      if (failure_) std::rethrow_exception(failure_);
      if (status != 0) stopped_ = true;  // Raptor cannot go on (XML that is not well-formed)
      if (status != 0 && !sawError_) report(TextPosition{lastLine(), 1}, "the RDF/XML could not be read further");
    }
    return report_;
  }

 private:
  // Only a strict read's error and a lenient read's first few are shown:
  // the others need no column (finding one scans the text kept).
  bool positionNeeded() const { return !options_.lenient || report_.keepsMoreErrors(); }

  // A problem at `where`: strict, it ends the read; lenient, it is counted.
  void report(TextPosition where, const std::string& message) {
    sawError_ = true;
    const std::string located =
        name_ + ":" + std::to_string(where.line) + ":" + std::to_string(where.column) + ": " + message;
    if (!options_.lenient) {
      if (!failure_) failure_ = std::make_exception_ptr(LoadError(located));
      stopped_ = true;
      raptor_.raptor_parser_parse_abort(parser_);
      return;
    }
    ++report_.skipped;
    report_.keepError(located);
  }

  uint64_t lastLine() const {
    const raptor_locator* locator = raptor_.raptor_parser_get_locator(parser_);
    return locator != nullptr && locator->line > 0 ? static_cast<uint64_t>(locator->line) : 1;
  }

  // Where `token` (the value the message quotes, as Raptor quotes values)
  // is written, else the first non-blank character of `line`.
  // A triple is made at a property element, so its subject's bad IRI may be
  // a few lines up (an rdf:about): with `above`, the nearest of the 20 lines
  // up to `line` that holds the token counts.
  TextPosition locate(uint64_t line, std::string_view token, bool above = false) const {
    const std::optional<std::string_view> text = window_.line(line);
    if (!text) return {line, 1};
    for (uint64_t back = 0; !token.empty() && back < (above ? 20 : 1) && back < line; ++back) {
      const std::optional<std::string_view> above = back == 0 ? text : window_.line(line - back);
      if (!above) break;
      const size_t at = above->find(token);
      if (at != std::string_view::npos) return {line - back, at + 1};
    }
    const size_t first = text->find_first_not_of(" \t\r");
    return {line, first == std::string_view::npos ? 1 : first + 1};
  }

  // The first 'quoted' part of a message, which names the bad value.
  static std::string_view quoted(std::string_view message) {
    const size_t open = message.find('\'');
    if (open == std::string_view::npos) return {};
    const size_t close = message.find('\'', open + 1);
    if (close == std::string_view::npos) return {};
    return message.substr(open + 1, close - open - 1);
  }

  static void onLog(void* handle, raptor_log_message* message) {
    auto* self = static_cast<RaptorSession*>(handle);
    if (self->stopped_) return;
    // Warnings: Raptor goes on, and so does the read; but rdf:aboutEach and
    // rdf:aboutEachPrefix, which RDF/XML dropped in 2004, Raptor only warns
    // about and skips, where the W3C tests want an error.
    const bool aboutEach = message->text != nullptr && std::strstr(message->text, "aboutEach") != nullptr;
    if (message->level < RAPTOR_LOG_LEVEL_ERROR && !aboutEach) return;
    try {
      std::string text = message->text != nullptr ? message->text : "RDF/XML error";
      std::replace(text.begin(), text.end(), '\n', ' ');
      while (!text.empty() && text.back() == ' ') text.pop_back();
      // libxml2 gives well-formedness errors with their line and column.
      const xmlError* xml = xmlGetLastError();
      if (text.starts_with("XML parser error: ") && xml != nullptr && xml->line > 0) {
        text.erase(0, std::strlen("XML parser error: "));
        if (const size_t at = text.find(" line 0 "); at != std::string::npos) text.erase(at, 7);
        self->report({static_cast<uint64_t>(xml->line), static_cast<uint64_t>(std::max(xml->int2, 1))}, text);
        return;
      }
      const uint64_t line = message->locator != nullptr && message->locator->line > 0
                                ? static_cast<uint64_t>(message->locator->line)
                                : self->lastLine();
      self->report(self->positionNeeded() ? self->locate(line, quoted(text)) : TextPosition{line, 1}, text);
    } catch (...) {
      if (!self->failure_) self->failure_ = std::current_exception();
      self->stopped_ = true;
    }
  }

  static int refuseUri(void*, raptor_uri*) { return 1; }

  // The document's blank-node names (rdf:nodeID) stay as they are; Raptor's
  // own are 01, 02, ...: a digit first, which no rdf:nodeID (an XML name)
  // has, while N-Triples allows it, so that the two never meet.
  static unsigned char* onBlankNodeId(void* handle, unsigned char* named) {
    if (named != nullptr) return named;
    auto* self = static_cast<RaptorSession*>(handle);
    const std::string id = "0" + std::to_string(++self->blankNodes_);
    auto* out = static_cast<unsigned char*>(self->raptor_.raptor_alloc_memory(id.size() + 1));
    if (out != nullptr) std::memcpy(out, id.c_str(), id.size() + 1);
    return out;
  }

  static void onTriple(void* handle, raptor_statement* statement) {
    auto* self = static_cast<RaptorSession*>(handle);
    if (self->stopped_) return;
    try {
      self->deliver(*statement);
    } catch (const BadTriple& bad) {
      const uint64_t line = self->lastLine();
      self->report(self->positionNeeded() ? self->locate(line, bad.token, true) : TextPosition{line, 1}, bad.message);
    } catch (...) {
      if (!self->failure_) self->failure_ = std::current_exception();
      self->stopped_ = true;
      self->raptor_.raptor_parser_parse_abort(self->parser_);
    }
  }

  void deliver(const raptor_statement& statement) {
    subject_.clear();
    predicate_.clear();
    object_.clear();
    appendTerm(subject_, statement.subject);
    appendTerm(predicate_, statement.predicate);
    appendTerm(object_, statement.object);
    ++report_.statements;
    onStatement_(RdfStatementView{subject_, predicate_, object_, options_.defaultGraph});
  }

  void appendIri(std::string& out, raptor_uri* uri) {
    size_t length = 0;
    const unsigned char* text = raptor_.raptor_uri_as_counted_string(uri, &length);
    const std::string_view iri = view(text, length);
    if (isBadIri(iri)) throw BadTriple{"bad IRI '" + std::string(iri) + "': it holds a character IRIs cannot", std::string(iri)};
    if (!hasScheme(iri)) throw BadTriple{"the IRI '" + std::string(iri) + "' is not absolute", std::string(iri)};
    rdf::appendIri(out, iri);
  }

  void appendTerm(std::string& out, const raptor_term* term) {
    switch (term->type) {
      case RAPTOR_TERM_TYPE_URI:
        appendIri(out, term->value.uri);
        return;
      case RAPTOR_TERM_TYPE_BLANK:
        out += "_:";
        out += options_.blankNodePrefix;
        out += view(term->value.blank.string, term->value.blank.string_len);
        return;
      case RAPTOR_TERM_TYPE_LITERAL: {
        const raptor_term_literal_value& literal = term->value.literal;
        const std::string_view lexical = view(literal.string, literal.string_len);
        if (literal.datatype != nullptr) {
          size_t length = 0;
          const unsigned char* datatype = raptor_.raptor_uri_as_counted_string(literal.datatype, &length);
          const std::string_view iri = view(datatype, length);
          if (isBadIri(iri) || !hasScheme(iri)) throw BadTriple{"bad datatype IRI '" + std::string(iri) + "'", std::string(iri)};
          rdf::appendLiteral(out, lexical, {}, iri);
        } else {
          const std::string_view language =
              literal.language != nullptr ? view(literal.language, literal.language_len) : std::string_view{};
          rdf::appendLiteral(out, lexical, language, {});
        }
        return;
      }
      default:
        throw BadTriple{"unexpected term", {}};
    }
  }

  InputStream& input_;
  const std::string& name_;
  const StatementHandler& onStatement_;
  const RdfReadOptions& options_;
  const RaptorLibrary& raptor_ = raptorLibrary();
  raptor_world* world_ = nullptr;
  raptor_parser* parser_ = nullptr;
  raptor_uri* base_ = nullptr;
  RdfReadReport report_;
  std::exception_ptr failure_;
  bool stopped_ = false;
  bool sawError_ = false;
  uint64_t blankNodes_ = 0;
  TextWindow window_;
  MarkupGuard markup_;
  std::string subject_, predicate_, object_;
};

}  // namespace

RdfReadReport readRdfXml(InputStream& input, const std::string& name, const std::string& baseIri,
                         const StatementHandler& onStatement, const RdfReadOptions& options) {
  RaptorSession session(input, name, baseIri, onStatement, options);
  return session.run();
}

}  // namespace gsparql
