#include "cli/usage.h"

namespace gsparql::cli {
namespace {

// Where the meanings start; a longer option pushes its meaning to the next line.
constexpr size_t kMeaningColumn = 28;

std::string optionLine(const std::string& option, const std::string& meaning) {
  std::string line = "  " + option;
  line += line.size() + 2 <= kMeaningColumn ? std::string(kMeaningColumn - line.size(), ' ')
                                            : "\n" + std::string(kMeaningColumn, ' ');
  return line + meaning + "\n";
}

}  // namespace

ArgumentSpec argumentSpec(const CommandUsage& usage) {
  ArgumentSpec spec{{}, {"--help", "-h"}, usage.maxOperands};
  for (const OptionUsage& option : usage.options) {
    (option.value.empty() ? spec.flags : spec.valued).insert(option.name);
  }
  return spec;
}

std::string usageText(const CommandUsage& usage) {
  std::string text = "gsparql " + usage.name + ": " + usage.summary + "\n\n";
  text += "usage: gsparql " + usage.name + (usage.synopsis.empty() ? "" : " " + usage.synopsis) + "\n\noptions:\n";
  for (const OptionUsage& option : usage.options) {
    text += optionLine(option.name + (option.value.empty() ? "" : " " + option.value), option.meaning);
  }
  text += optionLine("-h, --help", "print this help");
  if (!usage.notes.empty()) text += "\n" + usage.notes;
  return text;
}

}  // namespace gsparql::cli
