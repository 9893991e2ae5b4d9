// The gsparql command line: the table of commands, and main(), which runs
// one and reports its errors: a misuse as one line and a hint (exit status
// 2), any other error as one line (1).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "gsparql/error.h"
#include "platform/heap_settings.h"

namespace gsparql::cli {

const std::vector<const Command*>& allCommands() {
  static const std::vector<const Command*> table{
      &loadCommand(),
      &infoCommand(),
      &dumpCommand(),
      &queryCommand(),
      &updateCommand(),
      &replCommand(),
      &serveCommand(),
      &parseCommand(),
      &benchCommand(),
      &calibrateCommand(),
      &helpCommand(),
      &versionCommand(),
  };
  return table;
}

const Command* findCommand(std::string_view name) {
  const auto& table = allCommands();
  auto it = std::find_if(table.begin(), table.end(), [&](const Command* c) { return c->usage.name == name; });
  return it == table.end() ? nullptr : *it;
}

}  // namespace gsparql::cli

namespace {

using namespace gsparql::cli;

// What stands in a command's place: --help and -h for help, --version
// and -V for version.
std::string commandName(const std::string& word) {
  if (word == "--help" || word == "-h") return "help";
  if (word == "--version" || word == "-V") return "version";
  return word;
}

int misuse(const std::string& who, const std::string& message, const std::string& hint) {
  std::fprintf(stderr, "%s: %s\ntry '%s'\n", who.c_str(), message.c_str(), hint.c_str());
  return 2;
}

int run(const Command& command, const std::vector<std::string>& args) {
  const Arguments a(args, argumentSpec(command.usage));
  if (a.flag("--help") || a.flag("-h")) {
    std::fputs(usageText(command.usage).c_str(), stdout);
    return 0;
  }
  return command.run(a);
}

}  // namespace

int main(int argc, char** argv) {
  gsparql::startWithWarmHeapSettings();
  if (argc < 2) return misuse("gsparql", "no command given", "gsparql help");
  const std::string name = commandName(argv[1]);
  const Command* command = findCommand(name);
  if (command == nullptr) return misuse("gsparql", "unknown command '" + name + "'", "gsparql help");
  const std::string who = "gsparql " + name;
  try {
    return run(*command, std::vector<std::string>(argv + 2, argv + argc));
  } catch (const UsageError& e) {
    return misuse(who, e.what(), name == "help" ? "gsparql help" : who + " --help");
  } catch (const gsparql::Error& e) {
    std::fprintf(stderr, "%s: error: %s\n", who.c_str(), e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: internal error: %s\n", who.c_str(), e.what());
    return 1;
  }
}
