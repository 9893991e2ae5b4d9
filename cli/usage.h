#pragma once
// What a command takes and what each of its options means: the one source
// of its help text (gsparql help COMMAND, docs/cli.md) and of the options
// its parser accepts, so that the two cannot drift apart.
#include <cstddef>
#include <string>
#include <vector>

#include "cli/arguments.h"

namespace gsparql::cli {

struct OptionUsage {
  std::string name;     // "--db"
  std::string value;    // "DIR"; empty for a flag
  std::string meaning;  // one line
};

struct CommandUsage {
  std::string name{};      // "load"
  std::string synopsis{};  // what follows "gsparql load": "--db DIR [options] FILE..."
  std::string summary{};   // one line, for the overview
  std::vector<OptionUsage> options{};
  std::string notes{};     // lines after the options, each ending in '\n'; may be empty
  size_t maxOperands = 0;  // positional arguments it takes at most
};

// The parser's view of `usage`: its options, and -h and --help.
ArgumentSpec argumentSpec(const CommandUsage& usage);
// The summary, the synopsis, the options one a line and the notes.
std::string usageText(const CommandUsage& usage);

}  // namespace gsparql::cli
