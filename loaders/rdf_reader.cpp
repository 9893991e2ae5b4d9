#include "loaders/rdf_reader.h"

#include <cstring>

#include "gsparql/error.h"
#include "loaders/jsonld_reader.h"
#include "loaders/rdfxml_reader.h"
#include "loaders/statement_splitter.h"
#include "loaders/turtle_reader.h"
#include "rdf/rdf_formats.h"

namespace gsparql {
namespace {


std::string fileUri(const std::string& name) {
  std::filesystem::path path = name == "-" ? std::filesystem::current_path() / "stdin"
                                           : std::filesystem::absolute(name);
  return "file://" + path.lexically_normal().string();
}

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

// Cuts the input into statements (StatementSplitter) and reads each with
// TurtleParser. Leniency drops whole pieces: a lenient read holds a piece's
// triples back until the piece has been read without error.
class TurtleSession {
 public:
  TurtleSession(InputStream& input, const std::string& name, RdfFormat format,
                const StatementHandler& onStatement, const RdfReadOptions& options)
      : input_(input),
        name_(name),
        format_(format),
        onStatement_(onStatement),
        options_(options),
        parser_(format, options.baseIri.empty() ? fileUri(name) : options.baseIri, options),
        holdBack_([this](const RdfStatementView& s) { pending_.add(s.subject, s.predicate, s.object, s.graph); }) {}

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
    if (!options_.lenient) report_.statements = parser_.triplesRead();
    return report_;
  }

 private:
  // Reads one piece; returns what was wrong with it, if anything. A strict
  // read fails whole at any error, so its triples go straight on.
  std::optional<TextProblem> parse(const Statement& statement) {
    try {
      parser_.parse({statement.text, statement.size}, options_.lenient ? holdBack_ : onStatement_);
      return std::nullopt;
    } catch (const TurtleSyntaxError& error) {
      return TextProblem{statement.positionOf(error.offset), error.message};
    }
  }

  std::string located(const TextProblem& problem) const {
    return name_ + ":" + std::to_string(problem.where.line) + ":" + std::to_string(problem.where.column) +
           ": " + problem.message;
  }

  void skip(const TextProblem& problem) {
    ++report_.skipped;
    report_.keepError(located(problem));
  }

  InputStream& input_;
  const std::string& name_;
  const RdfFormat format_;
  const StatementHandler& onStatement_;
  const RdfReadOptions& options_;
  TurtleParser parser_;
  PendingTriples pending_;
  const StatementHandler holdBack_;
  RdfReadReport report_;
};

}  // namespace

RdfReadReport readRdf(InputStream& input, const std::string& name, RdfFormat format,
                      const StatementHandler& onStatement, const RdfReadOptions& options) {
  const std::string& baseIri = options.baseIri.empty() ? fileUri(name) : options.baseIri;
  if (format == RdfFormat::RdfXml) return readRdfXml(input, name, baseIri, onStatement, options);
  if (format == RdfFormat::JsonLd) return readJsonLd(input, name, baseIri, onStatement, options);
  TurtleSession session(input, name, format, onStatement, options);
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
