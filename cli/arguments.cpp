#include "cli/arguments.h"

namespace gsparql::cli {

Arguments::Arguments(const std::vector<std::string>& args, const ArgumentSpec& spec) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "-" || !arg.starts_with("-")) {
      if (positional_.size() == spec.maxPositional) throw UsageError("unexpected argument '" + arg + "'");
      positional_.push_back(arg);
      continue;
    }
    // --name=value is --name value.
    const size_t equals = arg.find('=');
    const std::string name = arg.substr(0, equals);
    if (spec.flags.count(name)) {
      if (equals != std::string::npos) throw UsageError("option '" + name + "' takes no value");
      flags_.insert(name);
    } else if (spec.valued.count(name)) {
      if (equals != std::string::npos) {
        values_[name].push_back(arg.substr(equals + 1));
      } else if (i + 1 < args.size()) {
        values_[name].push_back(args[++i]);
      } else {
        throw UsageError("option '" + name + "' needs a value");
      }
    } else {
      throw UsageError("unknown option '" + name + "'");
    }
  }
}

std::optional<std::string> Arguments::value(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second.back();
}

std::vector<std::string> Arguments::values(const std::string& name) const {
  auto it = values_.find(name);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

std::string Arguments::required(const std::string& name) const {
  auto v = value(name);
  if (!v) throw UsageError("option '" + name + "' is required");
  return *v;
}

}  // namespace gsparql::cli
