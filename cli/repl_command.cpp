// `gsparql repl`: an interactive shell over one database. The logic lives in
// repl_session.cpp; this file adds the terminal: line editing and history,
// Ctrl-C, and paging of long results.
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "cli/commands.h"
#include "cli/line_editor.h"
#include "cli/pager.h"
#include "cli/query_options.h"
#include "cli/repl_session.h"
#include "gsparql/database.h"

namespace gsparql::cli {
namespace {

std::atomic<bool>* runningQueryCancel = nullptr;

void onQueryInterrupt(int) {
  if (runningQueryCancel == nullptr) return;
  if (!runningQueryCancel->exchange(true, std::memory_order_relaxed)) {
    // Stopping can take a moment (the join of disconnected patterns and the
    // decoding of rows already found run to their end); say it was heard.
    static const char kNote[] = " cancelling...\n";
    ssize_t ignored = ::write(STDERR_FILENO, kNote, sizeof kNote - 1);
    (void)ignored;
  }
}

// Ctrl-C sets the session's cancel flag while a statement runs and its
// result is shown (the pager gets its own Ctrl-C; we must not die of it).
class QueryInterruptScope {
 public:
  explicit QueryInterruptScope(std::atomic<bool>& cancel) {
    runningQueryCancel = &cancel;
    struct sigaction action {};
    action.sa_handler = onQueryInterrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    ::sigaction(SIGINT, &action, &previous_);
  }
  ~QueryInterruptScope() {
    ::sigaction(SIGINT, &previous_, nullptr);
    runningQueryCancel = nullptr;
  }
  QueryInterruptScope(const QueryInterruptScope&) = delete;
  QueryInterruptScope& operator=(const QueryInterruptScope&) = delete;

 private:
  struct sigaction previous_ {};
};

std::filesystem::path historyFile() {
  if (const char* path = std::getenv("GSPARQL_HISTORY")) return path;  // empty: no history file
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return std::filesystem::path(home) / ".gsparql_history";
  }
  return {};
}

constexpr const char* kPrompt = "gsparql> ";
constexpr const char* kContinuation = "     ..> ";

int runRepl(const Arguments& a) {
  const std::string dir = a.required("--db");
  repl::Settings settings;
  settings.options = queryOptionsFrom(a);
  settings.database = databaseOptionsFrom(a);
  repl::Session session(dir, settings);
  LineEditor editor("gsparql", historyFile());

  repl::Output output;
  output.show = [](const std::string& text) { showPaged(text); };
  output.error = [](const std::string& text) {
    std::fflush(stdout);
    std::fprintf(stderr, "%s\n", text.c_str());
    std::fflush(stderr);
  };
  output.note = output.error;  // on stderr too: a script's standard output holds only results

  if (editor.interactive()) {
    std::printf("gsparql repl on %s (%llu triples). End queries with ';'; .help for help, Ctrl-D to leave.\n",
                dir.c_str(), static_cast<unsigned long long>(session.database().statistics().triples));
    std::fflush(stdout);
  }

  bool failed = false;
  auto run = [&](const std::string& statement) {
    QueryInterruptScope scope(session.cancelFlag());
    return session.runStatement(statement, output);
  };

  repl::StatementBuffer buffer;
  for (;;) {
    LineEditor::Input input = editor.readLine(buffer.blank() ? kPrompt : kContinuation);
    if (input.status == LineEditor::Status::Interrupted) {
      buffer.clear();
      continue;
    }
    if (input.status == LineEditor::Status::EndOfInput) {
      if (!buffer.blank()) {
        if (editor.interactive()) {
          output.error("(unfinished statement dropped: end statements with ';')");
        } else if (run(buffer.pending()) == repl::Session::Outcome::Failed) {
          failed = true;  // a script may leave out the last ';'
        }
      }
      if (editor.interactive()) std::fputs("\n", stdout);
      break;
    }
    if (buffer.blank() && repl::isDotCommand(input.line)) {
      editor.addHistory(input.line);
      auto outcome = session.runDotCommand(input.line, output);
      if (outcome == repl::Session::Outcome::Quit) break;
      failed = failed || outcome == repl::Session::Outcome::Failed;
      continue;
    }
    for (const std::string& statement : buffer.add(input.line)) {
      if (repl::isBlank(statement)) continue;
      editor.addHistory(repl::historyEntry(statement));
      failed = run(statement) == repl::Session::Outcome::Failed || failed;
    }
  }
  std::fflush(stdout);
  // At a terminal errors were shown and dealt with; a script learns of them.
  return editor.interactive() || !failed ? 0 : 1;
}

}  // namespace

const Command& replCommand() {
  static const Command command{
      {.name = "repl",
       .synopsis = "--db DIR [options]",
       .summary = "an interactive shell over a database",
       .options = {sharedOption("--db"), sharedOption("--backend"), sharedOption("--semantics"),
                   sharedOption("--timeout"), sharedOption("--memory-budget"), sharedOption("--optimizer"),
                   sharedOption("--cost-model"), sharedOption("--gpus"), sharedOption("--gpu-memory"), sharedOption("--gpu-peer-memory"), sharedOption("--gpu-preload"),
                   sharedOption("--union-default-graph"), sharedOption("--no-geosparql-rewrite"),
                   sharedOption("--entailment")},
       .notes = std::string("Queries and updates end with ';', prefixes are remembered, .help lists the shell's\n"
                            "commands (docs/repl.md). Reading a script rather than a terminal, it exits with\n"
                            "status 1 if a statement failed.\n\n") +
                kOptimizerNotes},
      runRepl};
  return command;
}

}  // namespace gsparql::cli
