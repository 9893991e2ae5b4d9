#include "cli/line_editor.h"

#include <histedit.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>

namespace gsparql::cli {
namespace {

volatile std::sig_atomic_t interrupted = 0;

void onInterrupt(int) { interrupted = 1; }

constexpr int kHistorySize = 1000;

}  // namespace

LineEditor::LineEditor(const char* program, std::filesystem::path historyFile)
    : historyFile_(std::move(historyFile)), interactive_(::isatty(STDIN_FILENO) != 0) {
  el_ = el_init(program, stdin, stdout, stderr);
  if (el_ == nullptr) return;  // readLine() falls back to plain reads
  el_set(el_, EL_CLIENTDATA, this);
  el_set(el_, EL_PROMPT, &LineEditor::promptOf);
  el_set(el_, EL_EDITOR, "emacs");
  // libedit restores the terminal on signals and passes them on to our handler.
  el_set(el_, EL_SIGNAL, 1);
  if (interactive_) {
    history_ = history_init();
    HistEvent event;
    history(history_, &event, H_SETSIZE, kHistorySize);
    history(history_, &event, H_SETUNIQUE, 1);
    if (!historyFile_.empty()) history(history_, &event, H_LOAD, historyFile_.c_str());
    el_set(el_, EL_HIST, history, history_);
    el_source(el_, nullptr);  // ~/.editrc, as other editline programs do
  }
}

LineEditor::~LineEditor() {
  if (history_ != nullptr) history_end(history_);
  if (el_ != nullptr) el_end(el_);
}

char* LineEditor::promptOf(EditLine* el) {
  void* self = nullptr;
  el_get(el, EL_CLIENTDATA, &self);
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
  const char* line = el_ != nullptr ? el_gets(el_, &count) : nullptr;
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
    if (el_ != nullptr) el_reset(el_);
    std::fputs("^C\n", stdout);
    std::fflush(stdout);
  }
  ::sigaction(SIGINT, &previous, nullptr);
  return input;
}

void LineEditor::addHistory(const std::string& entry) {
  if (history_ == nullptr || entry.empty()) return;
  HistEvent event;
  history(history_, &event, H_ENTER, entry.c_str());
  if (!historyFile_.empty()) history(history_, &event, H_SAVE, historyFile_.c_str());
}

}  // namespace gsparql::cli
