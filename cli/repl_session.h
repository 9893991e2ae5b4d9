#pragma once
// The logic of `gsparql repl`, kept apart from the terminal so tests can run
// it without one: splitting input into statements at `;`, remembering PREFIX
// declarations, parsing dot-commands, and running a statement with the
// session's settings. repl_command.cpp adds the line editor, signals and the
// pager around it.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gsparql/database.h"
#include "gsparql/query.h"

namespace gsparql::cli::repl {

// Collects input lines until a `;` ends a statement. A `;` inside a string
// ('..', "..", '''..''', """.."""), an IRI (<..>) or a # comment does not
// count. Text after the last `;` stays pending for the next line.
class StatementBuffer {
 public:
  // Appends `line` (without its newline) and returns every statement it
  // completes, without the `;`. In an update, a `;` followed by more on its
  // line separates operations of one request instead.
  std::vector<std::string> add(std::string_view line);
  // True when no statement has been started (main prompt): blank lines and
  // comments between statements are dropped.
  bool blank() const;
  const std::string& pending() const { return pending_; }
  void clear() { pending_.clear(); }

 private:
  bool separatesOperations(size_t start, size_t semicolon) const;

  std::string pending_;
};

// True when `text` holds only whitespace and # comments.
bool isBlank(std::string_view text);

// The PREFIX (and BASE) declarations at the start of a statement.
struct Prologue {
  std::vector<std::pair<std::string, std::string>> prefixes;  // "ex", "http://e/" (no ':' and <>)
  size_t end = 0;  // offset of the first character after the last declaration
};
Prologue scanPrologue(std::string_view statement);

// Prefixes declared during the session, in the order first declared; a
// later declaration of the same name replaces the IRI.
class PrefixMap {
 public:
  void declare(const std::string& name, const std::string& iri);
  const std::vector<std::pair<std::string, std::string>>& entries() const { return entries_; }
  // "PREFIX a: <..> PREFIX b: <..>" for every prefix not in `except`; empty
  // when there is none.
  std::string declarationsExcept(const std::vector<std::pair<std::string, std::string>>& except) const;

 private:
  std::vector<std::pair<std::string, std::string>> entries_;
};

// A line typed at the main prompt whose first non-blank character is '.'.
bool isDotCommand(std::string_view line);

struct DotCommand {
  enum class Kind { Help, Format, Timer, Explain, Backend, Semantics, Timeout, Prefixes, Quit };
  Kind kind;
  std::string argument;  // empty when none was given
};
// Parses ".name [argument]"; throws std::invalid_argument with a message for
// a person (unknown command, missing or extra argument).
DotCommand parseDotCommand(std::string_view line);

// Error messages of a query that had `linesAdded` lines prepended (the
// session's prefixes): the "line:column" that names the position is moved
// back so it points into what the person typed.
std::string shiftErrorPosition(const std::string& message, unsigned line, unsigned column,
                               unsigned linesAdded);

// One history entry for a statement typed over several lines: the lines
// joined with spaces, comments dropped, `;` appended; kept as typed when a
// string spans lines.
std::string historyEntry(std::string_view statement);

extern const char* const kHelp;

struct Settings {
  ResultFormat format = ResultFormat::Table;
  bool timer = false;
  bool explainAlways = false;  // .explain on
  bool explainNext = false;    // .explain (the next query only)
  QueryOptions options;        // backend and semantics; `cancel` is set by the session
  DatabaseOptions database;    // --gpu-memory
};

// Where a session's output goes. `show` receives a whole result (table, plan,
// timings) at once so the front end can page it; `error` receives messages
// for a person, one or more lines, without a final newline, and `note` news
// about the session that is neither a result nor an error, the same way.
struct Output {
  std::function<void(const std::string&)> show;
  std::function<void(const std::string&)> error;
  std::function<void(const std::string&)> note;
};

class Session {
 public:
  enum class Outcome { Ok, Failed, Quit };

  // Opens the database at `dir`.
  Session(const std::filesystem::path& dir, Settings settings);

  // Runs one statement (without its `;`): remembers its prefixes, prepends
  // the session's, runs the query and shows its result. A query reads the
  // newest generation: when a load has committed one since the last query,
  // the session moves to it first and notes "database changed: now reading
  // generation N".
  Outcome runStatement(std::string_view statement, const Output& out);
  // Runs a dot-command line.
  Outcome runDotCommand(std::string_view line, const Output& out);

  // Set it (from a signal handler) to stop the running query.
  std::atomic<bool>& cancelFlag() { return cancel_; }
  const Settings& settings() const { return settings_; }
  const PrefixMap& prefixes() const { return prefixes_; }
  const Database& database() const { return db_; }

 private:
  void moveToLatestGeneration(const Output& out);

  std::filesystem::path dir_;
  Database db_;
  std::string snapshot_;  // what db_ reads: "generation 4 + delta file 2"
  Settings settings_;
  PrefixMap prefixes_;
  std::atomic<bool> cancel_{false};
};

}  // namespace gsparql::cli::repl
