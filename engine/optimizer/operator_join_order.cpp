#include "engine/optimizer/operator_join_order.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace gsparql::engine {

double hashJoinCost(const ExecutorCosts& costs, double left, double right, double rows) {
  return costs.perCandidate * (left + right) + costs.perRow * rows;
}

std::vector<size_t> operatorJoinOrder(const std::vector<JoinOperand>& operands, const ExecutorCosts& costs) {
  std::vector<size_t> remaining(operands.size());
  for (size_t i = 0; i < remaining.size(); ++i) remaining[i] = i;
  std::vector<size_t> order;
  if (remaining.empty()) return order;
  const auto fewestRows = [&](size_t a, size_t b) { return operands[a].rows < operands[b].rows; };
  auto first = std::min_element(remaining.begin(), remaining.end(), fewestRows);
  order.push_back(*first);
  double rows = operands[*first].rows;
  std::set<std::string> bound(operands[*first].variables.begin(), operands[*first].variables.end());
  remaining.erase(first);
  const auto connected = [&](size_t i) {
    return std::any_of(operands[i].variables.begin(), operands[i].variables.end(),
                       [&](const std::string& v) { return bound.contains(v); });
  };
  while (!remaining.empty()) {
    auto end = std::stable_partition(remaining.begin(), remaining.end(), connected);
    if (end == remaining.begin()) end = remaining.end();  // nothing connects: a cross product
    const auto price = [&](size_t i) {
      const double x = operands[i].rows;
      return std::tuple(hashJoinCost(costs, rows, x, hashJoinRows(rows, x)), x);
    };
    auto next = std::min_element(remaining.begin(), end, [&](size_t a, size_t b) { return price(a) < price(b); });
    order.push_back(*next);
    rows = hashJoinRows(rows, operands[*next].rows);
    bound.insert(operands[*next].variables.begin(), operands[*next].variables.end());
    remaining.erase(next);
  }
  return order;
}

}  // namespace gsparql::engine
