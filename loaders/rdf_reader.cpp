#include "loaders/rdf_reader.h"

#include <serd/serd.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <exception>

#include "gsparql/error.h"
#include "loaders/jsonld_reader.h"
#include "loaders/rdfxml_reader.h"
#include "loaders/statement_splitter.h"
#include "rdf/iri.h"
#include "rdf/rdf_formats.h"
#include "rdf/term.h"

namespace gsparql {
namespace {

constexpr size_t kErrorsKept = 5;

std::string_view view(const SerdNode* node) {
  return {reinterpret_cast<const char*>(node->buf), node->n_bytes};
}

std::string fileUri(const std::string& name) {
  std::filesystem::path path = name == "-" ? std::filesystem::current_path() / "stdin"
                                           : std::filesystem::absolute(name);
  return "file://" + path.lexically_normal().string();
}

SerdSyntax serdSyntax(RdfFormat format) {
  switch (format) {
    case RdfFormat::NTriples: return SERD_NTRIPLES;
    case RdfFormat::Turtle: return SERD_TURTLE;
    case RdfFormat::TriG: return SERD_TRIG;
    case RdfFormat::NQuads: return SERD_NQUADS;
    case RdfFormat::RdfXml:  // Raptor's (loaders/rdfxml_reader.h)
    case RdfFormat::JsonLd: break;  // loaders/jsonld_reader.h
  }
  return SERD_NTRIPLES;
}

// A statement that cannot be stored: what is wrong and where.
struct BadStatement {
  TextProblem problem;
};

// The triples of one statement, held back in a lenient read until the whole
// statement has been read without error: a skipped statement stores none.
class PendingTriples {
 public:
  void add(std::string_view s, std::string_view p, std::string_view o, std::string_view g) {
    for (std::string_view term : {s, p, o, g}) {
      bytes_ += term;
      ends_.push_back(bytes_.size());
    }
  }
  void deliverTo(const StatementHandler& handler) {
    for (size_t i = 0, begin = 0; i < ends_.size(); i += 4) {
      std::string_view terms[4];
      for (size_t k = 0; k < 4; ++k) {
        terms[k] = std::string_view(bytes_).substr(begin, ends_[i + k] - begin);
        begin = ends_[i + k];
      }
      handler(RdfStatementView{terms[0], terms[1], terms[2], terms[3]});
    }
    clear();
  }
  size_t size() const { return ends_.size() / 4; }
  void clear() {
    bytes_.clear();
    ends_.clear();
  }

 private:
  std::string bytes_;
  std::vector<size_t> ends_;
};

// State shared with Serd's C callbacks. Serd reads one statement at a time
// (StatementSplitter cuts them) and always strictly: leniency is ours, and
// it drops whole statements. Exceptions must not cross Serd, so a callback
// stores them and stops the reader; run() rethrows afterwards.
class SerdSession {
 public:
  SerdSession(InputStream& input, const std::string& name, RdfFormat format,
              const StatementHandler& onStatement, const RdfReadOptions& options)
      : input_(input), name_(name), format_(format), onStatement_(onStatement), options_(options) {
    std::string base = options.baseIri.empty() ? fileUri(name) : options.baseIri;
    SerdNode baseNode = serd_node_from_string(SERD_URI, reinterpret_cast<const uint8_t*>(base.c_str()));
    env_ = serd_env_new(&baseNode);
    reader_ = serd_reader_new(serdSyntax(format), this, nullptr, &SerdSession::onBase,
                              &SerdSession::onPrefix, &SerdSession::onStatement, nullptr);
    // Serd's lenient mode stores bad characters as U+FFFD and loops forever
    // on an IRI cut off by the end of the input.
    serd_reader_set_strict(reader_, true);
    serd_reader_set_error_sink(reader_, &SerdSession::onError, this);
    if (!options.blankNodePrefix.empty()) {
      serd_reader_add_blank_prefix(reader_,
                                   reinterpret_cast<const uint8_t*>(options.blankNodePrefix.c_str()));
    }
  }
  ~SerdSession() {
    serd_reader_free(reader_);
    serd_env_free(env_);
  }
  SerdSession(const SerdSession&) = delete;
  SerdSession& operator=(const SerdSession&) = delete;

  RdfReadReport run() {
    StatementSplitter splitter(input_, {.stopAtProblem = !options_.lenient,
                                        .statementPerLine = isLineBased(format_),
                                        .firstLine = options_.firstLine,
                                        .graphBlocks = format_ == RdfFormat::TriG});
    Statement statement;
    while (splitter.next(statement)) {
      std::optional<TextProblem> problem = statement.problem ? statement.problem : parse(statement);
      if (!problem) {
        report_.statements += pending_.size();
        pending_.deliverTo(onStatement_);
        continue;
      }
      pending_.clear();
      if (!options_.lenient) throw LoadError(located(*problem));
      skip(*problem);
      if (!statement.terminated) splitter.skipPastLine(problem->where.line);
    }
    return report_;
  }

 private:
  // Reads one statement; returns what was wrong with it, if anything.
  std::optional<TextProblem> parse(const Statement& statement) {
    statement_ = &statement;
    problem_.reset();
    const SerdStatus status = serd_reader_read_string(reader_, reinterpret_cast<const uint8_t*>(statement.text));
    if (failure_) std::rethrow_exception(failure_);
    if (status > SERD_FAILURE && !problem_) {
      problem_ = TextProblem{statement.positionOf(statement.firstToken), "bad statement"};
    }
    return problem_;
  }

  std::string located(const TextProblem& problem) const {
    return name_ + ":" + std::to_string(problem.where.line) + ":" + std::to_string(problem.where.column) +
           ": " + problem.message;
  }

  void skip(const TextProblem& problem) {
    ++report_.skipped;
    if (report_.firstErrors.size() < kErrorsKept) report_.firstErrors.push_back(located(problem));
  }

  static SerdStatus onBase(void* handle, const SerdNode* uri) {
    auto* self = static_cast<SerdSession*>(handle);
    if (self->refuseDirective()) return SERD_ERR_BAD_SYNTAX;
    const std::string absolute = self->resolved(uri);
    const SerdNode node = serd_node_from_string(SERD_URI, reinterpret_cast<const uint8_t*>(absolute.c_str()));
    return serd_env_set_base_uri(self->env_, &node);
  }
  static SerdStatus onPrefix(void* handle, const SerdNode* name, const SerdNode* uri) {
    auto* self = static_cast<SerdSession*>(handle);
    if (self->refuseDirective()) return SERD_ERR_BAD_SYNTAX;
    const std::string absolute = self->resolved(uri);
    const SerdNode node = serd_node_from_string(SERD_URI, reinterpret_cast<const uint8_t*>(absolute.c_str()));
    return serd_env_set_prefix(self->env_, name, &node);
  }

  // A relative IRI resolved against the current base by rdf/iri.h (RFC 3986
  // 5.2): Serd 0.30.16 leaves dot segments it should remove (<./g/.> against
  // <http://a/bb/ccc/d;p?q> gives http://a/bb/ccc/g/. where RFC 3986 says
  // http://a/bb/ccc/g/). An absolute one stays as it is.
  std::string resolved(const SerdNode* uri) const {
    if (serd_uri_string_has_scheme(uri->buf)) return std::string(view(uri));
    const SerdNode* base = serd_env_get_base_uri(env_, nullptr);
    if (base == nullptr || base->buf == nullptr) return std::string(view(uri));
    return rdf::resolveIri(view(base), view(uri));
  }

  // Serd takes @prefix and @base in N-Triples and N-Quads too, which have
  // none: such a line is a bad statement (a lenient read skips it), so that
  // the names after it fail alike whether the input is read as one stream or
  // in pieces on all cores.
  bool refuseDirective() {
    if (!isLineBased(format_)) return false;
    if (!problem_) {
      problem_ = TextProblem{statement_->positionOf(statement_->firstToken), "N-Triples and N-Quads have no directives"};
    }
    return true;
  }

  static SerdStatus onError(void* handle, const SerdError* error) {
    auto* self = static_cast<SerdSession*>(handle);
    char message[512];
    va_list args;
    va_copy(args, *error->args);
    std::vsnprintf(message, sizeof message, error->fmt, args);
    va_end(args);
    std::string text = message;
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    // Serd may report several errors for one statement; the first is the cause.
    if (!self->problem_) self->problem_ = TextProblem{self->inputPosition(error->line, error->col), text};
    return SERD_SUCCESS;
  }

  // Serd counts lines from 1 in the statement's text, and columns from 1 on
  // its first line but from 0 after each newline.
  TextPosition inputPosition(unsigned line, unsigned column) const {
    const TextPosition start = statement_->start;
    if (line <= 1) return {start.line, start.column + column - 1};
    return {start.line + line - 1, uint64_t{column} + 1};
  }

  static SerdStatus onStatement(void* handle, SerdStatementFlags, const SerdNode* graph,
                                const SerdNode* subject, const SerdNode* predicate,
                                const SerdNode* object, const SerdNode* datatype,
                                const SerdNode* language) {
    auto* self = static_cast<SerdSession*>(handle);
    try {
      self->hold(graph, subject, predicate, object, datatype, language);
      return SERD_SUCCESS;
    } catch (const BadStatement& bad) {
      if (!self->problem_) self->problem_ = bad.problem;
    } catch (...) {
      self->failure_ = std::current_exception();
    }
    return SERD_ERR_INTERNAL;
  }

  void hold(const SerdNode* graph, const SerdNode* subject, const SerdNode* predicate,
            const SerdNode* object, const SerdNode* datatype, const SerdNode* language) {
    subject_.clear();
    predicate_.clear();
    object_.clear();
    graph_.clear();
    appendTerm(subject_, subject, nullptr, nullptr);
    appendTerm(predicate_, predicate, nullptr, nullptr);
    appendTerm(object_, object, datatype, language);
    if (graph == nullptr || graph->type == SERD_NOTHING) {
      graph_ = options_.defaultGraph;
    } else if (graph->type == SERD_LITERAL) {
      throw BadStatement{{locate(view(graph)), "a graph name must be an IRI or a blank node"}};
    } else {
      appendTerm(graph_, graph, nullptr, nullptr);
    }
    // A strict read fails whole at any error, so its triples go straight on;
    // a lenient one keeps a statement's triples until the statement is read.
    if (options_.lenient) {
      pending_.add(subject_, predicate_, object_, graph_);
    } else {
      ++report_.statements;
      onStatement_(RdfStatementView{subject_, predicate_, object_, graph_});
    }
  }

  void appendTerm(std::string& out, const SerdNode* node, const SerdNode* datatype,
                  const SerdNode* language) {
    switch (node->type) {
      case SERD_URI:
      case SERD_CURIE:
        withAbsoluteIri(node, [&](std::string_view iri) { rdf::appendIri(out, iri); });
        return;
      case SERD_BLANK:
        out += "_:";
        out += view(node);
        return;
      case SERD_LITERAL:
        if (datatype != nullptr && datatype->type != SERD_NOTHING) {
          withAbsoluteIri(datatype, [&](std::string_view iri) {
            rdf::appendLiteral(out, view(node), {}, iri);
          });
        } else {
          rdf::appendLiteral(out, view(node), language ? view(language) : std::string_view{}, {});
        }
        return;
      default:
        throw BadStatement{{locate(view(node)), "unexpected node '" + std::string(view(node)) + "'"}};
    }
  }

  // Absolute IRIs (all of N-Triples) pass through untouched; prefixed names
  // and relative IRIs are expanded against the prefixes and base seen so far.
  template <typename Use>
  void withAbsoluteIri(const SerdNode* node, Use use) {
    if (node->type == SERD_URI && serd_uri_string_has_scheme(node->buf)) {
      use(view(node));
      return;
    }
    if (node->type == SERD_URI) {
      const SerdNode* base = serd_env_get_base_uri(env_, nullptr);
      if (base != nullptr && base->buf != nullptr && base->n_bytes > 0) {
        use(resolved(node));
        return;
      }
    }
    SerdNode expanded = serd_env_expand_node(env_, node);
    if (expanded.buf == nullptr) {
      const char* what = node->type == SERD_CURIE ? "undefined prefix in '" : "no base IRI for '";
      throw BadStatement{{locate(view(node)), what + std::string(view(node)) + "'"}};
    }
    use(view(&expanded));
    serd_node_free(&expanded);
  }

  // Where `token` is written in the current statement (its first occurrence
  // that starts a token), or the statement's first token.
  TextPosition locate(std::string_view token) const {
    const std::string_view text(statement_->text, statement_->size);
    for (size_t at = text.find(token, statement_->firstToken); at != std::string_view::npos;
         at = text.find(token, at + 1)) {
      const char before = at == 0 ? ' ' : text[at - 1];
      if (std::strchr(" \t\r\n<[(,;^", before) != nullptr) return statement_->positionOf(at);
    }
    return statement_->positionOf(statement_->firstToken);
  }

  InputStream& input_;
  const std::string& name_;
  const RdfFormat format_;
  const StatementHandler& onStatement_;
  const RdfReadOptions& options_;
  SerdEnv* env_ = nullptr;
  SerdReader* reader_ = nullptr;
  RdfReadReport report_;
  std::exception_ptr failure_;
  const Statement* statement_ = nullptr;  // the one Serd is reading
  std::optional<TextProblem> problem_;     // the first thing wrong with it
  PendingTriples pending_;
  std::string subject_, predicate_, object_, graph_;
};

}  // namespace

RdfReadReport readRdf(InputStream& input, const std::string& name, RdfFormat format,
                      const StatementHandler& onStatement, const RdfReadOptions& options) {
  const std::string& baseIri = options.baseIri.empty() ? fileUri(name) : options.baseIri;
  if (format == RdfFormat::RdfXml) return readRdfXml(input, name, baseIri, onStatement, options);
  if (format == RdfFormat::JsonLd) return readJsonLd(input, name, baseIri, onStatement, options);
  SerdSession session(input, name, format, onStatement, options);
  return session.run();
}

void readRdfFile(const std::filesystem::path& file, RdfFormat format,
                 const StatementHandler& onStatement) {
  auto input = openInput(file.string());
  readRdf(*input, file.string(), format, onStatement);
}

std::optional<RdfFormat> rdfFormatOfFileName(const std::string& name) {
  const rdf::RdfSyntax* syntax = rdf::rdfSyntaxByFileName(name);
  if (syntax == nullptr) return std::nullopt;
  return syntax->reader;
}

}  // namespace gsparql
