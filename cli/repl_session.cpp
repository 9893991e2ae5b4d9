#include "cli/repl_session.h"

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

namespace gsparql::cli::repl {
namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// Length of the IRIREF starting at text[at] == '<', or 0 when none starts
// there (then '<' is the less-than operator).
size_t iriLength(std::string_view text, size_t at) {
  for (size_t i = at + 1; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '>') return i - at + 1;
    if (c <= 0x20 || c == '<' || c == '"' || c == '{' || c == '}' || c == '|' || c == '^' || c == '`' ||
        c == '\\') {
      return 0;
    }
  }
  return 0;
}

// A minimal SPARQL lexer: enough to know what is code, string, IRI or
// comment. `visit(kind, begin, end)` is called for every piece in order.
enum class Piece { Code, String, Iri, Comment };

template <typename Visit>
void lex(std::string_view text, Visit visit) {
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '#') {
      size_t end = text.find('\n', i);
      if (end == std::string_view::npos) end = text.size();
      visit(Piece::Comment, i, end);
      i = end;
    } else if (c == '"' || c == '\'') {
      const bool isLong = text.substr(i, 3) == std::string(3, c);
      size_t j = i + (isLong ? 3 : 1);
      while (j < text.size()) {
        if (text[j] == '\\') {
          j += 2;
        } else if (isLong ? text.substr(j, 3) == std::string(3, c) : text[j] == c) {
          j += isLong ? 3 : 1;
          break;
        } else if (!isLong && text[j] == '\n') {
          break;  // an unterminated short string ends with its line
        } else {
          ++j;
        }
      }
      j = std::min(j, text.size());
      visit(Piece::String, i, j);
      i = j;
    } else if (c == '<' && iriLength(text, i) > 0) {
      size_t n = iriLength(text, i);
      visit(Piece::Iri, i, i + n);
      i += n;
    } else {
      visit(Piece::Code, i, i + 1);
      ++i;
    }
  }
}

bool isNameChar(char c) {
  unsigned char u = static_cast<unsigned char>(c);
  return std::isalnum(u) || c == '_' || c == '-' || c == '.' || u >= 0x80;
}

bool keywordAt(std::string_view text, size_t at, std::string_view keyword) {
  if (text.size() - at < keyword.size()) return false;
  for (size_t k = 0; k < keyword.size(); ++k) {
    if (std::toupper(static_cast<unsigned char>(text[at + k])) != keyword[k]) return false;
  }
  size_t after = at + keyword.size();
  return after == text.size() || !(isNameChar(text[after]) || text[after] == ':');
}

size_t skipBlank(std::string_view text, size_t i) {
  while (i < text.size()) {
    if (isSpace(text[i])) {
      ++i;
    } else if (text[i] == '#') {
      size_t end = text.find('\n', i);
      i = end == std::string_view::npos ? text.size() : end + 1;
    } else {
      break;
    }
  }
  return i;
}

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
    case ResultFormat::NTriples: return "nt";
    case ResultFormat::Turtle: return "ttl";
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
  const bool graphFormat = chosen == ResultFormat::NTriples || chosen == ResultFormat::Turtle;
  if (result.isGraph() && !graphFormat && chosen != ResultFormat::Table) return ResultFormat::NTriples;
  if (!result.isGraph() && graphFormat) return ResultFormat::Table;
  return chosen;
}

}  // namespace

bool isBlank(std::string_view text) {
  bool blank = true;
  lex(text, [&](Piece piece, size_t b, size_t) {
    if (piece != Piece::Comment && !(piece == Piece::Code && isSpace(text[b]))) blank = false;
  });
  return blank;
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
  int depth = 0;
  size_t start = 0;
  lex(pending_, [&](Piece piece, size_t b, size_t) {
    if (piece != Piece::Code) return;
    char c = pending_[b];
    if (c == '{' || c == '(' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ')' || c == ']') {
      depth = depth > 0 ? depth - 1 : 0;
    } else if (c == ';' && depth == 0 && !separatesOperations(start, b)) {
      statements.push_back(pending_.substr(start, b - start));
      start = b + 1;
    }
  });
  pending_.erase(0, start);
  // Nothing but blanks and comments left: the next line starts afresh.
  if (isBlank(pending_)) pending_.clear();
  return statements;
}

bool StatementBuffer::blank() const { return isBlank(pending_); }

Prologue scanPrologue(std::string_view text) {
  Prologue prologue;
  size_t i = skipBlank(text, 0);
  while (i < text.size()) {
    if (keywordAt(text, i, "PREFIX")) {
      size_t j = skipBlank(text, i + 6);
      size_t nameStart = j;
      while (j < text.size() && isNameChar(text[j])) ++j;
      if (j >= text.size() || text[j] != ':') break;
      std::string name(text.substr(nameStart, j - nameStart));
      j = skipBlank(text, j + 1);
      if (j >= text.size() || text[j] != '<') break;
      size_t n = iriLength(text, j);
      if (n == 0) break;
      prologue.prefixes.emplace_back(name, std::string(text.substr(j + 1, n - 2)));
      prologue.end = j + n;
      i = skipBlank(text, prologue.end);
    } else if (keywordAt(text, i, "BASE")) {
      size_t j = skipBlank(text, i + 4);
      if (j >= text.size() || text[j] != '<') break;
      size_t n = iriLength(text, j);
      if (n == 0) break;
      prologue.end = j + n;
      i = skipBlank(text, prologue.end);
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
  std::string code;  // the statement without comments
  bool multiLineString = false;
  lex(statement, [&](Piece piece, size_t b, size_t e) {
    std::string_view part = statement.substr(b, e - b);
    if (piece == Piece::String && part.find('\n') != std::string_view::npos) multiLineString = true;
    if (piece != Piece::Comment) code.append(part);
  });
  if (multiLineString) return trim(statement) + ";";
  std::string entry;
  std::istringstream lines(code);
  for (std::string line; std::getline(lines, line);) {
    std::string t = trim(line);
    if (t.empty()) continue;
    if (!entry.empty()) entry += ' ';
    entry += t;
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
    Database latest(dir_, settings_.database);
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
          settings_.options.timeout = arg == "off" ? std::nullopt : std::optional(parseTimeout(arg));
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
