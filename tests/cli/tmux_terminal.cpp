#include "cli/tmux_terminal.h"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <stdexcept>
#include <thread>

namespace gsparql::test {

CommandOutput runCommand(const std::vector<std::string>& argv) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
  pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    ::dup2(fds[1], STDOUT_FILENO);
    ::dup2(fds[1], STDERR_FILENO);
    ::close(fds[0]);
    ::close(fds[1]);
    ::unsetenv("TMUX");  // tests may themselves run inside tmux
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  ::close(fds[1]);
  CommandOutput result;
  char buffer[4096];
  ssize_t n;
  while ((n = ::read(fds[0], buffer, sizeof buffer)) > 0 || (n < 0 && errno == EINTR)) {
    if (n > 0) result.output.append(buffer, static_cast<size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) result.exitCode = WEXITSTATUS(status);
  return result;
}

bool tmuxAvailable() { return runCommand({"tmux", "-V"}).exitCode == 0; }

size_t countOf(const std::string& haystack, const std::string& needle) {
  size_t count = 0;
  for (size_t at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + needle.size())) {
    ++count;
  }
  return count;
}

TmuxTerminal::TmuxTerminal(const std::string& shellCommand, int columns, int rows) {
  static std::atomic<int> counter{0};
  socket_ = "gsparql-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  auto out = runCommand({"tmux", "-L", socket_, "-f", "/dev/null", "new-session", "-d", "-s", "t", "-x",
                         std::to_string(columns), "-y", std::to_string(rows),
                         shellCommand + "; echo \"[exit $?]\"; sleep 600"});
  if (out.exitCode != 0) throw std::runtime_error("tmux new-session failed: " + out.output);
}

TmuxTerminal::~TmuxTerminal() { runCommand({"tmux", "-L", socket_, "kill-server"}); }

std::vector<std::string> TmuxTerminal::tmux(std::vector<std::string> args) const {
  args.insert(args.begin(), {"tmux", "-L", socket_});
  auto out = runCommand(args);
  if (out.exitCode != 0) throw std::runtime_error("tmux " + args[3] + " failed: " + out.output);
  return {out.output};
}

void TmuxTerminal::type(const std::string& text) {
  // tmux reads an argument ending in ';' as a command separator.
  std::string escaped = text;
  if (!escaped.empty() && escaped.back() == ';') escaped.insert(escaped.size() - 1, "\\");
  tmux({"send-keys", "-t", "t", "-l", "--", escaped});
}

void TmuxTerminal::line(const std::string& text) {
  type(text);
  press("Enter");
}

void TmuxTerminal::press(const std::string& key) { tmux({"send-keys", "-t", "t", key}); }

std::string TmuxTerminal::screen() const {
  return tmux({"capture-pane", "-p", "-J", "-t", "t", "-S", "-"})[0];
}

std::string TmuxTerminal::lastLine() const {
  std::string text = screen();
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  size_t nl = text.rfind('\n');
  return nl == std::string::npos ? text : text.substr(nl + 1);
}

bool TmuxTerminal::waitFor(const std::string& text, int times, std::chrono::milliseconds timeout) const {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (countOf(screen(), text) >= static_cast<size_t>(times)) return true;
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

}  // namespace gsparql::test
