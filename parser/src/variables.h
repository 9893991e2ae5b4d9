#pragma once
#include <set>
#include <string>
#include <vector>

#include "parser/algebra.h"

namespace gsparql::sparql {

// Variable names in order of first appearance, with a set beside the list so
// that adding or looking one up costs O(log n) rather than a scan.
class Variables {
 public:
  void add(const std::string& var) {
    if (!var.empty() && seen_.insert(var).second) ordered_.push_back(var);
  }
  bool contains(const std::string& var) const { return seen_.count(var) > 0; }
  const std::vector<std::string>& ordered() const { return ordered_; }
  std::vector<std::string> release() && { return std::move(ordered_); }

 private:
  std::vector<std::string> ordered_;
  std::set<std::string> seen_;
};

// Adds the variables in scope for the solutions of `op` (section 18.2.1).
void addInScopeVariables(const Op& op, Variables& out);

}  // namespace gsparql::sparql
