#pragma once
// The order in which the planner joins operators: a join's inputs that are
// not one BGP (paths, VALUES, subqueries, the parts of a merged graph), each
// planned on its own. Inner joins commute and associate, so the optimizer
// orders them, priced by the cost model as hash joins, as it orders a BGP's
// steps: from the input with the fewest estimated rows, each next is the
// connected input (one that shares a variable with those joined) whose join
// it prices lowest, so a cross product is built only where nothing connects.
#include <cstddef>
#include <string>
#include <vector>

#include "gsparql/cost_model.h"

namespace gsparql::engine {

struct JoinOperand {
  double rows = 0;  // estimated
  std::vector<std::string> variables;
};

// A hash join of `left` and `right` estimated rows that makes `rows`: every
// row of both sides examined once (building the smaller side, probing with
// the other), and its rows made.
double hashJoinCost(const ExecutorCosts& costs, double left, double right, double rows);

// The rows the planner estimates a hash join makes (the larger side: most
// joins follow a key from one side to the other).
inline double hashJoinRows(double left, double right) { return left < right ? right : left; }

// The indices of `operands` in the order they are joined, by `costs` (the
// CPU executor's: operators run there). Ties go to the fewer rows, then to
// the earlier operand.
std::vector<size_t> operatorJoinOrder(const std::vector<JoinOperand>& operands, const ExecutorCosts& costs);

}  // namespace gsparql::engine
