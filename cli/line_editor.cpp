#include "cli/line_editor.h"

#include <histedit.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>

#include "gsparql/error.h"
#include "platform/shared_library.h"

namespace gsparql::cli {
namespace {

// libedit, opened on first use (platform/shared_library.h): only the REPL
// edits lines, and linked, libedit and what it loads (terminfo, libbsd,
// libmd) were bound at every process's start.
#define GSPARQL_EDIT_FUNCTIONS(X) \
  X(el_end) X(el_get) X(el_gets) X(el_init) X(el_reset) X(el_set) X(el_source) X(history) X(history_end) X(history_init)

struct EditLibrary {
  GSPARQL_EDIT_FUNCTIONS(GSPARQL_FUNCTION_POINTER)
};

GSPARQL_DEFINE_LIBRARY_TABLE(EditLibrary, edit, GSPARQL_EDIT_FUNCTIONS, GSPARQL_EDIT_SONAME, "editing the REPL's lines")

volatile std::sig_atomic_t interrupted = 0;

void onInterrupt(int) { interrupted = 1; }

constexpr int kHistorySize = 1000;

}  // namespace

LineEditor::LineEditor(const char* program, std::filesystem::path historyFile)
    : historyFile_(std::move(historyFile)), interactive_(::isatty(STDIN_FILENO) != 0) {
  const EditLibrary* lib = nullptr;
  try {
    lib = &edit();
  } catch (const Error& e) {  // readLine() falls back to plain reads
    if (interactive_) std::fprintf(stderr, "%s: line editing and history off\n", e.what());
    return;
  }
  el_ = lib->el_init(program, stdin, stdout, stderr);
  if (el_ == nullptr) return;  // readLine() falls back to plain reads
  lib->el_set(el_, EL_CLIENTDATA, this);
  lib->el_set(el_, EL_PROMPT, &LineEditor::promptOf);
  lib->el_set(el_, EL_EDITOR, "emacs");
  // libedit restores the terminal on signals and passes them on to our handler.
  lib->el_set(el_, EL_SIGNAL, 1);
  if (interactive_) {
    history_ = lib->history_init();
    HistEvent event;
    lib->history(history_, &event, H_SETSIZE, kHistorySize);
    lib->history(history_, &event, H_SETUNIQUE, 1);
    if (!historyFile_.empty()) lib->history(history_, &event, H_LOAD, historyFile_.c_str());
    lib->el_set(el_, EL_HIST, lib->history, history_);
    lib->el_source(el_, nullptr);  // ~/.editrc, as other editline programs do
  }
}

LineEditor::~LineEditor() {
  if (history_ != nullptr) edit().history_end(history_);
  if (el_ != nullptr) edit().el_end(el_);
}

char* LineEditor::promptOf(EditLine* el) {
  void* self = nullptr;
  edit().el_get(el, EL_CLIENTDATA, &self);
  return const_cast<char*>(static_cast<LineEditor*>(self)->prompt_.c_str());
}

LineEditor::Input LineEditor::readLine(const std::string& prompt) {
  prompt_ = interactive_ ? prompt : std::string();
  // While reading, Ctrl-C only interrupts the read (no SA_RESTART).
  struct sigaction action {}, previous{};
  action.sa_handler = onInterrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;
  ::sigaction(SIGINT, &action, &previous);
  interrupted = 0;

  Input input{Status::EndOfInput, {}};
  int count = 0;
  errno = 0;
  const char* line = el_ != nullptr ? edit().el_gets(el_, &count) : nullptr;
  if (line != nullptr && count > 0) {
    input.status = Status::Line;
    input.line.assign(line, static_cast<size_t>(count));
    if (!input.line.empty() && input.line.back() == '\n') input.line.pop_back();
    if (!input.line.empty() && input.line.back() == '\r') input.line.pop_back();
  } else if (interrupted != 0 || errno == EINTR) {
    input.status = Status::Interrupted;
  }
  if (el_ == nullptr && interrupted == 0) {
    // No editline at all: plain stdio.
    char* raw = nullptr;
    size_t size = 0;
    ssize_t n = ::getline(&raw, &size, stdin);
    if (n >= 0) {
      input.status = Status::Line;
      input.line.assign(raw, static_cast<size_t>(n));
      if (!input.line.empty() && input.line.back() == '\n') input.line.pop_back();
    }
    std::free(raw);
  }
  if (input.status == Status::Interrupted) {
    if (el_ != nullptr) edit().el_reset(el_);
    std::fputs("^C\n", stdout);
    std::fflush(stdout);
  }
  ::sigaction(SIGINT, &previous, nullptr);
  return input;
}

void LineEditor::addHistory(const std::string& entry) {
  if (history_ == nullptr || entry.empty()) return;
  HistEvent event;
  edit().history(history_, &event, H_ENTER, entry.c_str());
  if (!historyFile_.empty()) edit().history(history_, &event, H_SAVE, historyFile_.c_str());
}

}  // namespace gsparql::cli
