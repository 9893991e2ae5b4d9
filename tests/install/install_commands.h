#pragma once
// Shell commands for the install tests, with their output kept.
#include <filesystem>
#include <string>

namespace gsparql::test {

struct CommandResult {
  int exitCode = -1;
  std::string output;  // stdout and stderr together
};

// Runs `command` with sh, in `dir` when given.
CommandResult shell(const std::string& command, const std::filesystem::path& dir = {});

// Installs the build tree into `prefix` (cmake --install); fails the test if it cannot.
void installInto(const std::filesystem::path& prefix);

// Quoted for sh.
std::string shellQuoted(const std::filesystem::path& path);

}  // namespace gsparql::test
