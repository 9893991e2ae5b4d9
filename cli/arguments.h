#pragma once
// Minimal command-line parsing for the subcommands: options with values
// (--db DIR), flags (--lenient) and positional arguments, with a usage error
// for anything unknown.
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "options/option_values.h"

namespace gsparql::cli {

using options::UsageError;

struct ArgumentSpec {
  std::set<std::string> valued;  // e.g. "--db"
  std::set<std::string> flags;   // e.g. "--lenient"
};

class Arguments {
 public:
  Arguments(const std::vector<std::string>& args, const ArgumentSpec& spec);

  std::optional<std::string> value(const std::string& name) const;
  std::string required(const std::string& name) const;
  bool flag(const std::string& name) const { return flags_.count(name) > 0; }
  const std::vector<std::string>& positional() const { return positional_; }

 private:
  std::map<std::string, std::string> values_;
  std::set<std::string> flags_;
  std::vector<std::string> positional_;
};

}  // namespace gsparql::cli
