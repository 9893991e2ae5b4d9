#include "loaders/rdf_reader.h"

#include <serd/serd.h>

#include <cstdarg>
#include <cstdio>
#include <exception>

#include "gsparql/error.h"
#include "rdf/term.h"

namespace gsparql {
namespace {

constexpr size_t kPageSize = 1 << 16;
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
    case RdfFormat::NQuads: return SERD_NQUADS;
  }
  return SERD_NTRIPLES;
}

// State shared with Serd's C callbacks. Exceptions must not cross Serd, so a
// callback stores them and stops the reader; readRdf rethrows afterwards.
class SerdSession {
 public:
  SerdSession(InputStream& input, const std::string& name, RdfFormat format,
              const StatementHandler& onStatement, const RdfReadOptions& options)
      : input_(input), name_(name), onStatement_(onStatement), options_(options) {
    std::string base = options.baseIri.empty() ? fileUri(name) : options.baseIri;
    SerdNode baseNode = serd_node_from_string(SERD_URI, reinterpret_cast<const uint8_t*>(base.c_str()));
    env_ = serd_env_new(&baseNode);
    reader_ = serd_reader_new(serdSyntax(format), this, nullptr, &SerdSession::onBase,
                              &SerdSession::onPrefix, &SerdSession::onStatement, nullptr);
    serd_reader_set_strict(reader_, !options.lenient);
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
    SerdStatus status = serd_reader_read_source(reader_, &SerdSession::readBytes,
                                                &SerdSession::streamError, this,
                                                reinterpret_cast<const uint8_t*>(name_.c_str()),
                                                kPageSize);
    if (failure_) std::rethrow_exception(failure_);
    if (status > SERD_FAILURE && !options_.lenient) {
      throw LoadError(report_.firstErrors.empty() ? name_ + ": unreadable input"
                                                  : report_.firstErrors.front());
    }
    return report_;
  }

 private:
  static size_t readBytes(void* buffer, size_t, size_t capacity, void* handle) {
    auto* self = static_cast<SerdSession*>(handle);
    auto* out = static_cast<char*>(buffer);
    size_t filled = 0;
    try {
      while (filled < capacity) {
        size_t n = self->input_.read(out + filled, capacity - filled);
        if (n == 0) break;
        filled += n;
      }
    } catch (...) {
      self->failure_ = std::current_exception();
      return 0;
    }
    return filled;
  }
  static int streamError(void* handle) { return static_cast<SerdSession*>(handle)->failure_ ? 1 : 0; }

  static SerdStatus onBase(void* handle, const SerdNode* uri) {
    return serd_env_set_base_uri(static_cast<SerdSession*>(handle)->env_, uri);
  }
  static SerdStatus onPrefix(void* handle, const SerdNode* name, const SerdNode* uri) {
    return serd_env_set_prefix(static_cast<SerdSession*>(handle)->env_, name, uri);
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
    // Serd counts columns from 1 on the first line but from 0 after each
    // newline; report 1-based columns throughout.
    unsigned column = error->line > 1 ? error->col + 1 : error->col;
    self->recordError(error->line, column, text);
    return SERD_SUCCESS;
  }

  // Serd may report several errors for one bad statement; count each line once.
  void recordError(unsigned line, unsigned column, const std::string& text) {
    if (report_.skipped > 0 && line == lastErrorLine_) return;
    lastErrorLine_ = line;
    ++report_.skipped;
    if (report_.firstErrors.size() < kErrorsKept) {
      report_.firstErrors.push_back(name_ + ":" + std::to_string(line) + ":" + std::to_string(column) +
                                    ": " + text);
    }
  }

  static SerdStatus onStatement(void* handle, SerdStatementFlags, const SerdNode* graph,
                                const SerdNode* subject, const SerdNode* predicate,
                                const SerdNode* object, const SerdNode* datatype,
                                const SerdNode* language) {
    auto* self = static_cast<SerdSession*>(handle);
    try {
      self->deliver(graph, subject, predicate, object, datatype, language);
      return SERD_SUCCESS;
    } catch (...) {
      self->failure_ = std::current_exception();
      return SERD_ERR_INTERNAL;
    }
  }

  void deliver(const SerdNode* graph, const SerdNode* subject, const SerdNode* predicate,
               const SerdNode* object, const SerdNode* datatype, const SerdNode* language) {
    if (graph != nullptr && graph->type != SERD_NOTHING && !warnedAboutGraphs_) {
      warnedAboutGraphs_ = true;
      if (options_.onWarning) {
        options_.onWarning(name_ + ": named graphs are merged into the default graph");
      }
    }
    subject_.clear();
    predicate_.clear();
    object_.clear();
    appendTerm(subject_, subject, nullptr, nullptr);
    appendTerm(predicate_, predicate, nullptr, nullptr);
    appendTerm(object_, object, datatype, language);
    ++report_.statements;
    onStatement_(RdfStatementView{subject_, predicate_, object_});
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
        throw LoadError(name_ + ": unexpected node '" + std::string(view(node)) + "'");
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
    SerdNode expanded = serd_env_expand_node(env_, node);
    if (expanded.buf == nullptr) {
      throw LoadError(name_ + ": cannot expand '" + std::string(view(node)) +
                      (node->type == SERD_CURIE ? "': undefined prefix" : "': no base IRI"));
    }
    use(view(&expanded));
    serd_node_free(&expanded);
  }

  InputStream& input_;
  const std::string& name_;
  const StatementHandler& onStatement_;
  const RdfReadOptions& options_;
  SerdEnv* env_ = nullptr;
  SerdReader* reader_ = nullptr;
  RdfReadReport report_;
  std::exception_ptr failure_;
  bool warnedAboutGraphs_ = false;
  unsigned lastErrorLine_ = 0;
  std::string subject_, predicate_, object_;
};

}  // namespace

RdfReadReport readRdf(InputStream& input, const std::string& name, RdfFormat format,
                      const StatementHandler& onStatement, const RdfReadOptions& options) {
  SerdSession session(input, name, format, onStatement, options);
  return session.run();
}

void readRdfFile(const std::filesystem::path& file, RdfFormat format,
                 const StatementHandler& onStatement) {
  auto input = openInput(file.string());
  readRdf(*input, file.string(), format, onStatement);
}

std::optional<RdfFormat> rdfFormatFromString(std::string_view format) {
  if (format == "nt" || format == "ntriples" || format == "n-triples") return RdfFormat::NTriples;
  if (format == "ttl" || format == "turtle") return RdfFormat::Turtle;
  if (format == "nq" || format == "nquads" || format == "n-quads") return RdfFormat::NQuads;
  return std::nullopt;
}

std::optional<RdfFormat> rdfFormatFromName(const std::string& name) {
  std::string extension = std::filesystem::path(withoutCompressionSuffix(name)).extension().string();
  if (extension.empty()) return std::nullopt;
  return rdfFormatFromString(std::string_view(extension).substr(1));
}

}  // namespace gsparql
