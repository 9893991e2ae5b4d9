#pragma once
// Option values given as text, read the same way wherever a user gives them:
// on the command line, in the REPL and in a Protocol request's parameters.
#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace gsparql::options {

// A value or an option the program cannot take: the message says what was
// expected. The command line answers it with exit code 2, the server with 400.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "2.5" (seconds) for --timeout, .timeout and the server's timeout parameter.
std::chrono::milliseconds parseTimeout(const std::string& seconds);
// --timeout of the commands: the same, or "0" or "none" for no limit
// (which the server, limited by default, needs a way to ask for).
std::optional<std::chrono::milliseconds> parseTimeLimit(const std::string& seconds);
// "8G", "512M", "1048576" for --memory-budget and --gpu-memory.
uint64_t parseByteSize(const std::string& size);

}  // namespace gsparql::options
