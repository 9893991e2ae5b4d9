// `gsparql help [COMMAND]` (and gsparql --help, -h): the overview of the
// commands, or one command's usage.
#include <cstdio>

#include "cli/commands.h"

namespace gsparql::cli {
namespace {

constexpr const char* kExitStatus = R"(exit status:
  0  success (an ASK query's answer is in its output, not in the status)
  1  failure: a bad query, update or RDF file, a database that cannot be read or
     written, a query past --timeout or --memory-budget; repl: a statement of a
     script failed; serve: a query that did not stop when cancelled
  2  misuse: an unknown command or option, an option without its value or with a
     bad one (-f FILE that cannot be read too), a wrong number of arguments
)";

std::string overview() {
  std::string text = "usage: gsparql COMMAND [options] [arguments]\n\ncommands:\n";
  for (const Command* command : allCommands()) {
    const std::string& name = command->usage.name;
    text += "  " + name + std::string(name.size() < 11 ? 11 - name.size() : 1, ' ') + command->usage.summary + "\n";
  }
  text += "\n'gsparql help COMMAND' or 'gsparql COMMAND --help' prints a command's options. An option's\n"
          "value follows it as '--option value' or '--option=value'.\n\n";
  return text + kExitStatus;
}

int runHelp(const Arguments& a) {
  if (a.positional().empty()) {
    std::fputs(overview().c_str(), stdout);
    return 0;
  }
  const Command* command = findCommand(a.positional()[0]);
  if (command == nullptr) throw UsageError("unknown command '" + a.positional()[0] + "'");
  std::fputs(usageText(command->usage).c_str(), stdout);
  return 0;
}

}  // namespace

const Command& helpCommand() {
  static const Command command{
      {.name = "help",
       .synopsis = "[COMMAND]",
       .summary = "print the overview of the commands, or a command's options (also: --help, -h)",
       .maxOperands = 1},
      runHelp};
  return command;
}

}  // namespace gsparql::cli
