#include "install_commands.h"

#include <doctest/doctest.h>

#include <sys/wait.h>

#include <cstdlib>

#include "support/files.h"
#include "support/test_support.h"

namespace gsparql::test {

CommandResult shell(const std::string& command, const std::filesystem::path& dir) {
  TempDir scratch;
  const auto outputFile = scratch / "output";
  std::string full = dir.empty() ? command : "cd " + shellQuoted(dir) + " && " + command;
  full = "( " + full + " ) > " + shellQuoted(outputFile) + " 2>&1";
  const int status = std::system(full.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, readText(outputFile)};
}

void installInto(const std::filesystem::path& prefix) {
  const CommandResult install =
      shell(std::string(GSPARQL_CMAKE) + " --install " + shellQuoted(GSPARQL_BUILD_DIR) + " --prefix " + shellQuoted(prefix));
  INFO(install.output);
  REQUIRE(install.exitCode == 0);
}

std::string shellQuoted(const std::filesystem::path& path) {
  std::string text = "'";
  for (char c : path.string()) text += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return text + "'";
}

}  // namespace gsparql::test
