#include "cli/repl_session.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <new>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "cli/arguments.h"
#include "cli/query_options.h"
#include "gsparql/error.h"
#include "parser/statement_tokens.h"

namespace gsparql::cli::repl {
namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && isSpace(s[b])) ++b;
  while (e > b && isSpace(s[e - 1])) --e;
  return std::string(s.substr(b, e - b));
}

std::string formatTimings(const QueryTimings& t, double outputMs) {
  char line[256];
  std::snprintf(line, sizeof line,
                "time: parse %.3f ms, plan %.3f ms, execute %.3f ms, output %.3f ms\n",
                t.parseMilliseconds, t.planMilliseconds, t.executeMilliseconds, outputMs);
  return line;
}

// Collects a result as text until the cancel flag is set, then drops the
// rest. (It cannot stop the writer by throwing: the table writer flushes in
// its destructor, and a stream error there would terminate the program.)
class CancellableBuffer : public std::stringbuf {
 public:
  explicit CancellableBuffer(const std::atomic<bool>& cancel) : cancel_(cancel) {}

 protected:
  int_type overflow(int_type c) override {
    if (cancelled()) return traits_type::not_eof(c);
    return std::stringbuf::overflow(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    if (cancelled()) return n;
    return std::stringbuf::xsputn(s, n);
  }

 private:
  bool cancelled() {
    if (!cancel_.load(std::memory_order_relaxed)) return false;
    if (!dropped_) {
      dropped_ = true;
      str(std::string());  // free what was collected
      setp(nullptr, nullptr);  // and send every later write here
    }
    return true;
  }
  const std::atomic<bool>& cancel_;
  bool dropped_ = false;
};

bool parseOnOff(const std::string& value, const char* command) {
  if (value == "on") return true;
  if (value == "off") return false;
  throw std::invalid_argument(std::string(command) + " takes on or off, not '" + value + "'");
}

const char* formatName(ResultFormat f) {
  switch (f) {
    case ResultFormat::Table: return "table";
    case ResultFormat::Tsv: return "tsv";
    case ResultFormat::Csv: return "csv";
    case ResultFormat::Json: return "json";
    case ResultFormat::Xml: return "xml";
    case ResultFormat::NTriples:
    case ResultFormat::Turtle:
    case ResultFormat::NQuads:
    case ResultFormat::TriG:
    case ResultFormat::RdfXml:
    case ResultFormat::JsonLd: return resultFormatName(f).data();  // NUL-terminated: literals of rdf/rdf_formats.cpp
  }
  return "?";
}

const char* backendName(Backend b) {
  switch (b) {
    case Backend::Auto: return "auto";
    case Backend::Cpu: return "cpu";
    case Backend::Gpu: return "gpu";
  }
  return "?";
}

// The session's format, or for a graph while a solutions format is set (a
// session moves between SELECT and CONSTRUCT), Turtle on the table and
// N-Triples otherwise; and the reverse for solutions while nt or ttl is set.
ResultFormat formatFor(const QueryResult& result, ResultFormat chosen) {
  const bool graphFormat = isGraphFormat(chosen);
  if (result.isGraph() && !graphFormat && chosen != ResultFormat::Table) return ResultFormat::NTriples;
  if (!result.isGraph() && graphFormat) return ResultFormat::Table;
  return chosen;
}

}  // namespace

bool isBlank(std::string_view text) {
  const sparql::TextTokens read = sparql::readTokens(text);
  return read.tokens.empty() && !read.unfinishedLongString;
}

// In an update, a `;` with more on its line separates the request's
// operations (INSERT DATA { ... } ; DELETE DATA { ... } ;), so that they
// apply together; at the end of its line it ends the request.
bool StatementBuffer::separatesOperations(size_t start, size_t semicolon) const {
  const size_t lineEnd = std::min(pending_.find('\n', semicolon), pending_.size());
  return !isBlank(std::string_view(pending_).substr(semicolon + 1, lineEnd - semicolon - 1)) &&
         isUpdateRequest(std::string_view(pending_).substr(start, semicolon - start));
}

std::vector<std::string> StatementBuffer::add(std::string_view line) {
  if (!pending_.empty()) pending_ += '\n';
  pending_.append(line);
  std::vector<std::string> statements;
  // `;` ends a statement only outside brackets: inside them it separates
  // predicate-object lists (?s :p ?o ; :q ?z) or GROUP_CONCAT arguments.
  // Nothing in a long string that goes on past the text ends one.
  int depth = 0;
  size_t start = 0;
  for (const sparql::TextToken& token : sparql::readTokens(pending_).tokens) {
    if (token.kind == sparql::TokenKind::Open) {
      ++depth;
    } else if (token.kind == sparql::TokenKind::Close) {
      depth = depth > 0 ? depth - 1 : 0;
    } else if (token.kind == sparql::TokenKind::Semicolon && depth == 0 &&
               !separatesOperations(start, token.begin)) {
      statements.push_back(pending_.substr(start, token.begin - start));
      start = token.begin + 1;
    }
  }
  pending_.erase(0, start);
  // Nothing but blanks and comments left: the next line starts afresh.
  if (isBlank(pending_)) pending_.clear();
  return statements;
}

bool StatementBuffer::blank() const { return isBlank(pending_); }

Prologue scanPrologue(std::string_view text) {
  Prologue prologue;
  const std::vector<sparql::TextToken> tokens = sparql::readTokens(text).tokens;
  const auto is = [&](size_t i, sparql::TokenKind kind) { return i < tokens.size() && tokens[i].kind == kind; };
  // Token i's text less `front` characters at its start and `back` at its end.
  const auto part = [&](size_t i, size_t front, size_t back) {
    return std::string(text.substr(tokens[i].begin + front, tokens[i].end - tokens[i].begin - front - back));
  };
  for (size_t i = 0; i < tokens.size();) {
    if (is(i, sparql::TokenKind::Prefix) && is(i + 1, sparql::TokenKind::PrefixName) &&
        is(i + 2, sparql::TokenKind::Iri)) {
      prologue.prefixes.emplace_back(part(i + 1, 0, 1), part(i + 2, 1, 1));  // ex: <iri>
      prologue.end = tokens[i + 2].end;
      i += 3;
    } else if (is(i, sparql::TokenKind::Base) && is(i + 1, sparql::TokenKind::Iri)) {
      prologue.end = tokens[i + 1].end;
      i += 2;
    } else {
      break;
    }
  }
  return prologue;
}

void PrefixMap::declare(const std::string& name, const std::string& iri) {
  for (auto& entry : entries_) {
    if (entry.first == name) {
      entry.second = iri;
      return;
    }
  }
  entries_.emplace_back(name, iri);
}

std::string PrefixMap::declarationsExcept(const std::vector<std::pair<std::string, std::string>>& except) const {
  std::string text;
  for (const auto& [name, iri] : entries_) {
    bool declared = false;
    for (const auto& e : except) declared = declared || e.first == name;
    if (declared) continue;
    if (!text.empty()) text += ' ';
    text += "PREFIX " + name + ": <" + iri + ">";
  }
  return text;
}

bool isDotCommand(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && isSpace(line[i])) ++i;
  return i < line.size() && line[i] == '.';
}

DotCommand parseDotCommand(std::string_view line) {
  std::istringstream words{std::string(line)};
  std::string name, argument, extra;
  words >> name >> argument >> extra;
  struct Entry {
    const char* name;
    DotCommand::Kind kind;
    bool takesArgument;
  };
  static const Entry kCommands[] = {
      {".help", DotCommand::Kind::Help, false},         {".format", DotCommand::Kind::Format, true},
      {".timer", DotCommand::Kind::Timer, true},        {".explain", DotCommand::Kind::Explain, true},
      {".backend", DotCommand::Kind::Backend, true},    {".semantics", DotCommand::Kind::Semantics, true},
      {".timeout", DotCommand::Kind::Timeout, true},
      {".prefixes", DotCommand::Kind::Prefixes, false}, {".quit", DotCommand::Kind::Quit, false},
      {".exit", DotCommand::Kind::Quit, false},
  };
  for (const Entry& e : kCommands) {
    if (name != e.name) continue;
    if (!extra.empty() || (!e.takesArgument && !argument.empty())) {
      throw std::invalid_argument(name + ": too many arguments (see .help)");
    }
    return DotCommand{e.kind, argument};
  }
  throw std::invalid_argument("unknown command '" + name + "' (see .help)");
}

std::string shiftErrorPosition(const std::string& message, unsigned line, unsigned column,
                               unsigned linesAdded) {
  if (linesAdded == 0 || line <= linesAdded) return message;
  const std::string from = std::to_string(line) + ":" + std::to_string(column);
  size_t at = message.find(from);
  if (at == std::string::npos) return message;
  std::string shifted = message;
  shifted.replace(at, from.size(), std::to_string(line - linesAdded) + ":" + std::to_string(column));
  return shifted;
}

std::string historyEntry(std::string_view statement) {
  const sparql::TextTokens read = sparql::readTokens(statement);
  const auto multiLine = [&](const sparql::TextToken& t) {
    return t.kind == sparql::TokenKind::String &&
           statement.substr(t.begin, t.end - t.begin).find('\n') != std::string_view::npos;
  };
  if (read.unfinishedLongString || std::any_of(read.tokens.begin(), read.tokens.end(), multiLine)) {
    return trim(statement) + ";";
  }
  // The tokens, one space where white space or comments were between them.
  std::string entry;
  size_t previousEnd = 0;
  for (const sparql::TextToken& token : read.tokens) {
    if (!entry.empty() && token.begin > previousEnd) entry += ' ';
    entry.append(statement.substr(token.begin, token.end - token.begin));
    previousEnd = token.end;
  }
  return entry + ";";
}

const char* const kHelp = R"(Type a SPARQL query over one or more lines and end it with ';'.
A PREFIX declared in a query, or alone ("PREFIX ex: <http://example.org/> ;"),
is remembered and added to later queries.
  .help                      this text
  .format table|tsv|csv|json|xml
                             how results are written (table at first)
  .timer on|off              print parse, plan, execute and output times
  .explain                   print the plan of the next query, with actual rows
  .explain on|off            ... of every query
  .backend cpu|gpu|auto      where queries run
  .semantics hom|iso         homomorphism (SPARQL) or isomorphism (injective)
  .timeout SECONDS|off       stop queries that run longer (off at first)
  .prefixes                  list the remembered prefixes
  .quit  (or Ctrl-D)         leave
Ctrl-C stops the running query, or clears the line being typed.
A command without its argument prints the current setting.
)";

namespace {
std::string snapshotOf(const Database& db) {
  const DatabaseStatistics stats = db.statistics();
  return snapshotName(stats.generation, stats.deltaFiles);
}
}  // namespace

Session::Session(const std::filesystem::path& dir, Settings settings)
    : dir_(dir), db_(dir, settings.database), snapshot_(snapshotOf(db_)), settings_(std::move(settings)) {}

void Session::moveToLatestGeneration(const Output& out) {
  try {
    if (db_.isLatest()) return;
    Database latest = db_.newest();
    snapshot_ = snapshotOf(latest);
    db_ = std::move(latest);
    out.note("database changed: now reading " + snapshot_);
  } catch (const Error& e) {
    out.error(std::string("error: the database changed, but its newest generation cannot be opened: ") + e.what() +
              "\n(still reading " + snapshot_ + ")");
  }
}

Session::Outcome Session::runStatement(std::string_view statement, const Output& out) {
  if (isBlank(statement)) return Outcome::Ok;
  const Prologue prologue = scanPrologue(statement);
  const std::string added = prefixes_.declarationsExcept(prologue.prefixes);
  for (const auto& [name, iri] : prologue.prefixes) prefixes_.declare(name, iri);
  if (isBlank(statement.substr(prologue.end))) return Outcome::Ok;  // declarations only
  moveToLatestGeneration(out);

  std::string text = added.empty() ? std::string(statement) : added + "\n" + std::string(statement);
  const unsigned linesAdded = added.empty() ? 0 : 1;
  const bool explain = settings_.explainAlways || settings_.explainNext;
  settings_.explainNext = false;
  QueryOptions options = settings_.options;
  options.cancel = &cancel_;
  options.stepTimes = explain;
  cancel_.store(false);
  try {
    if (isUpdateRequest(text)) {
      out.show(updateReport(Database::update(dir_, text, {options})) + "\n");
      moveToLatestGeneration(out);
      return Outcome::Ok;
    }
    QueryResult result = db_.query(text, options);
    auto start = std::chrono::steady_clock::now();
    CancellableBuffer buffer(cancel_);
    std::ostream stream(&buffer);
    result.write(stream, formatFor(result, settings_.format));
    if (cancel_.load()) throw QueryCancelled();
    std::string shown = buffer.str();
    double outputMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (!shown.empty() && shown.back() != '\n') shown += '\n';
    if (explain) {
      shown += result.explain();
      if (!shown.empty() && shown.back() != '\n') shown += '\n';
    }
    if (settings_.timer) shown += formatTimings(result.timings(), outputMs);
    out.show(shown);
    return Outcome::Ok;
  } catch (const QueryCancelled&) {
    out.error("query cancelled");
  } catch (const QueryError& e) {
    out.error("error: " + shiftErrorPosition(e.what(), e.line(), e.column(), linesAdded));
  } catch (const Error& e) {
    out.error(std::string("error: ") + e.what());
  } catch (const std::bad_alloc&) {
    out.error("error: out of memory (try a LIMIT, or a more selective query)");
  } catch (const std::exception& e) {
    out.error(std::string("internal error: ") + e.what());
  }
  return Outcome::Failed;
}

Session::Outcome Session::runDotCommand(std::string_view line, const Output& out) {
  try {
    const DotCommand command = parseDotCommand(line);
    const std::string& arg = command.argument;
    switch (command.kind) {
      case DotCommand::Kind::Help:
        out.show(kHelp);
        break;
      case DotCommand::Kind::Format:
        if (arg.empty()) {
          out.show(std::string("format ") + formatName(settings_.format) + "\n");
        } else if (auto format = resultFormatFromName(arg)) {
          settings_.format = *format;
        } else {
          throw std::invalid_argument("unknown format '" + arg + "' (table, tsv, csv, json or xml)");
        }
        break;
      case DotCommand::Kind::Timer:
        if (arg.empty()) {
          out.show(std::string("timer ") + (settings_.timer ? "on" : "off") + "\n");
        } else {
          settings_.timer = parseOnOff(arg, ".timer");
        }
        break;
      case DotCommand::Kind::Explain:
        if (arg.empty()) {
          settings_.explainNext = true;
        } else {
          settings_.explainAlways = parseOnOff(arg, ".explain");
          settings_.explainNext = false;
        }
        break;
      case DotCommand::Kind::Backend:
        if (arg.empty()) {
          out.show(std::string("backend ") + backendName(settings_.options.backend) + "\n");
        } else {
          settings_.options.backend = parseBackend(arg);
        }
        break;
      case DotCommand::Kind::Semantics:
        if (arg.empty()) {
          out.show(std::string("semantics ") +
                   (settings_.options.semantics == Semantics::Homomorphism ? "hom" : "iso") + "\n");
        } else {
          settings_.options.semantics = parseSemantics(arg);
        }
        break;
      case DotCommand::Kind::Timeout:
        if (arg.empty()) {
          const auto& t = settings_.options.timeout;
          out.show("timeout " + (t ? std::to_string(std::chrono::duration<double>(*t).count()) + " s" : "off") + "\n");
        } else {
          settings_.options.timeout = arg == "off" ? std::nullopt : std::optional(options::parseTimeout(arg));
        }
        break;
      case DotCommand::Kind::Prefixes: {
        std::string text;
        for (const auto& [name, iri] : prefixes_.entries()) text += "PREFIX " + name + ": <" + iri + ">\n";
        out.show(text.empty() ? "no prefixes declared yet\n" : text);
        break;
      }
      case DotCommand::Kind::Quit:
        return Outcome::Quit;
    }
    return Outcome::Ok;
  } catch (const UsageError& e) {
    out.error(std::string("error: ") + e.what());
  } catch (const std::invalid_argument& e) {
    out.error(std::string("error: ") + e.what());
  }
  return Outcome::Failed;
}

}  // namespace gsparql::cli::repl
