#include "cli/arguments.h"

namespace gsparql::cli {

Arguments::Arguments(const std::vector<std::string>& args, const ArgumentSpec& spec) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "-" || !arg.starts_with("-")) {
      positional_.push_back(arg);
    } else if (spec.flags.count(arg)) {
      flags_.insert(arg);
    } else if (spec.valued.count(arg)) {
      if (i + 1 == args.size()) throw UsageError(arg + " needs a value");
      values_[arg] = args[++i];
    } else {
      throw UsageError("unknown option " + arg);
    }
  }
}

std::optional<std::string> Arguments::value(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::string Arguments::required(const std::string& name) const {
  auto v = value(name);
  if (!v) throw UsageError("missing " + name);
  return *v;
}

}  // namespace gsparql::cli
