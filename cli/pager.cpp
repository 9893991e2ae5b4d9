#include "cli/pager.h"

#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>

namespace gsparql::cli {
namespace {

size_t terminalRows() {
  winsize size{};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_row > 0) return size.ws_row;
  return 24;
}

}  // namespace

bool stdoutIsTerminal() { return ::isatty(STDOUT_FILENO) != 0; }

void showPaged(const std::string& text) {
  const auto lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
  if (!stdoutIsTerminal() || lines < terminalRows()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    return;
  }
  const char* pager = std::getenv("PAGER");
  std::FILE* pipe = ::popen(pager != nullptr && *pager != '\0' ? pager : "less -FRX", "w");
  if (pipe == nullptr) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return;
  }
  // Quitting the pager early closes the pipe: that is not an error.
  auto previous = std::signal(SIGPIPE, SIG_IGN);
  std::fwrite(text.data(), 1, text.size(), pipe);
  int status = ::pclose(pipe);
  std::signal(SIGPIPE, previous);
  // The shell answers 127 when the pager does not exist: show the text anyway.
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  }
}

}  // namespace gsparql::cli
