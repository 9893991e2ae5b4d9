#pragma once
// Drives a program through a real pseudo-terminal, as a person would: a
// private tmux server (its own socket, no user configuration) runs the
// command in a 120x40 window; the test types keys and reads the screen.
#include <chrono>
#include <string>
#include <vector>

namespace gsparql::test {

// The output of a command run without a shell; exitCode -1 if it did not exit.
struct CommandOutput {
  int exitCode = -1;
  std::string output;
};
CommandOutput runCommand(const std::vector<std::string>& argv);

// True when `tmux` can be run (scripts/install-deps.sh installs it).
bool tmuxAvailable();

class TmuxTerminal {
 public:
  // Starts `shellCommand` (run by sh -c) in a new detached session. When the
  // command ends the pane shows "[exit N]" and stays open.
  explicit TmuxTerminal(const std::string& shellCommand, int columns = 120, int rows = 40);
  ~TmuxTerminal();
  TmuxTerminal(const TmuxTerminal&) = delete;
  TmuxTerminal& operator=(const TmuxTerminal&) = delete;

  // Types `text` literally (no Enter).
  void type(const std::string& text);
  // Types `text` then Enter.
  void line(const std::string& text);
  // Presses keys by tmux name: "Enter", "C-c", "C-d", "Up", "q".
  void press(const std::string& key);

  // Everything in the pane, scroll-back included, wrapped lines joined.
  std::string screen() const;
  // Polls the screen until it holds `text` at least `times` times; false
  // after `timeout`.
  bool waitFor(const std::string& text, int times = 1,
               std::chrono::milliseconds timeout = std::chrono::seconds(20)) const;
  // The last non-empty line of the pane (where the cursor's prompt is).
  std::string lastLine() const;

 private:
  std::vector<std::string> tmux(std::vector<std::string> args) const;
  std::string socket_;
};

size_t countOf(const std::string& haystack, const std::string& needle);

}  // namespace gsparql::test
