#pragma once
#include <map>
#include <set>
#include <string>

namespace gsparql::sparql {

// Names for variables and blank nodes the translation invents (path steps,
// anonymous blank nodes, aggregates). Names written in the query are skipped,
// so a fresh name never captures a user's variable.
class FreshNames {
 public:
  explicit FreshNames(std::set<std::string> taken) : taken_(std::move(taken)) {}

  std::string next(const std::string& prefix) {
    for (;;) {
      std::string name = prefix + std::to_string(counters_[prefix]++);
      if (taken_.insert(name).second) {
        invented_.insert(name);
        return name;
      }
    }
  }

  // True for names made by next(): SELECT * leaves them out.
  bool invented(const std::string& name) const { return invented_.count(name) > 0; }

 private:
  std::set<std::string> taken_, invented_;
  std::map<std::string, unsigned long> counters_;  // per prefix, so kinds do not renumber each other
};

}  // namespace gsparql::sparql
