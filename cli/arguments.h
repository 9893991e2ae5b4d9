#pragma once
// Minimal command-line parsing for the subcommands: options with values
// (--db DIR or --db=DIR), flags (--lenient) and positional arguments, with a
// usage error for anything unknown.
#include <cstddef>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "options/option_values.h"

namespace gsparql::cli {

using options::UsageError;

// No limit on the positional arguments (load's FILE...).
inline constexpr size_t kAnyNumber = std::numeric_limits<size_t>::max();

struct ArgumentSpec {
  std::set<std::string> valued;  // e.g. "--db"
  std::set<std::string> flags;   // e.g. "--lenient"
  size_t maxPositional = kAnyNumber;
};

class Arguments {
 public:
  Arguments(const std::vector<std::string>& args, const ArgumentSpec& spec);

  // An option given twice keeps its last value, as most tools do...
  std::optional<std::string> value(const std::string& name) const;
  // ...but a repeatable one (serve's --cors-origin) has them all, in order.
  std::vector<std::string> values(const std::string& name) const;
  std::string required(const std::string& name) const;
  bool flag(const std::string& name) const { return flags_.count(name) > 0; }
  const std::vector<std::string>& positional() const { return positional_; }

 private:
  std::map<std::string, std::vector<std::string>> values_;
  std::set<std::string> flags_;
  std::vector<std::string> positional_;
};

}  // namespace gsparql::cli
