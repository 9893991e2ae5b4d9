#pragma once
// EXISTS and NOT EXISTS (section 18.6): whether a pattern, with the current
// solution's values substituted for its variables, has a solution. When the
// pattern's expressions read none of the solution's variables, substitution
// is the same as a compatible-row test against the pattern's solutions,
// which are computed once (only the first where the pattern shares no
// variable with the solution: then any solution is compatible); otherwise
// the pattern runs once per distinct substitution, joined with a one-row
// table of the values. A FILTER conjunct that a join answers exactly never
// gets here (exists_join_plan.h).
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/physical/compatible_rows.h"
#include "engine/physical/execution_context.h"
#include "engine/planner/planner.h"

namespace gsparql::engine {

class ExistsProbe {
 public:
  explicit ExistsProbe(const Planner& planner) : planner_(planner) {}
  bool operator()(const sparql::Op& pattern, const std::vector<std::string>& variables,
                  const expr::Solution& solution, ExecutionContext& context);

 private:
  struct Solutions {  // of a pattern that reads no outer variable in expressions
    Table rows;
    std::vector<std::string> variables;
    std::unique_ptr<CompatibleRows> index;
    std::vector<std::string> keyVariables;
  };

  const Solutions& solutionsOf(const sparql::Op& pattern, const std::vector<std::string>& outer,
                               ExecutionContext& context);
  bool runSubstituted(const sparql::Op& pattern, const sparql::Table& values, ExecutionContext& context);

  const Planner& planner_;
  std::map<std::pair<const sparql::Op*, std::vector<std::string>>, Solutions> solutions_;
  std::map<std::pair<const sparql::Op*, std::vector<std::optional<std::string>>>, bool> substituted_;
};

}  // namespace gsparql::engine
