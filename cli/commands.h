#pragma once
// The gsparql subcommands. Each is its usage (the options it takes and its
// help text) and a function that runs it on the arguments after its name,
// parsed by that usage, and returns the process exit code. Errors are thrown
// and reported by main(): UsageError with exit code 2, others with 1.
#include <string>
#include <string_view>
#include <vector>

#include "cli/arguments.h"
#include "cli/usage.h"

namespace gsparql::cli {

struct Command {
  CommandUsage usage;
  int (*run)(const Arguments& args);
};

const Command& loadCommand();
const Command& infoCommand();
const Command& dumpCommand();
const Command& queryCommand();
const Command& updateCommand();
const Command& replCommand();
const Command& serveCommand();
const Command& parseCommand();
const Command& benchCommand();
const Command& calibrateCommand();
const Command& helpCommand();
const Command& versionCommand();

// Every command of this build, in the order the overview lists them.
const std::vector<const Command*>& allCommands();
// nullptr for a name that is no command.
const Command* findCommand(std::string_view name);

}  // namespace gsparql::cli
