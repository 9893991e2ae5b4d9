// The order of joins between operators (optimizer/operator_join_order.h).
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/optimizer/operator_join_order.h"

using gsparql::ExecutorCosts;
using gsparql::engine::JoinOperand;
using gsparql::engine::operatorJoinOrder;

namespace {

// The order the planner used before the optimizer priced it (planner.cpp's
// joinSmallestConnectedFirst until 2026-11-28): the smallest input, then each
// time the smallest of those sharing a variable with the inputs joined (the
// inputs kept partitioned, connected ones first, as it kept them), or of all
// where none does.
std::vector<size_t> smallestConnectedFirst(const std::vector<JoinOperand>& operands) {
  std::vector<size_t> inputs(operands.size()), order;
  for (size_t i = 0; i < inputs.size(); ++i) inputs[i] = i;
  const auto smallest = [&](auto begin, auto end) {
    return std::min_element(begin, end, [&](size_t a, size_t b) { return operands[a].rows < operands[b].rows; });
  };
  auto first = smallest(inputs.begin(), inputs.end());
  order.push_back(*first);
  std::set<std::string> bound(operands[*first].variables.begin(), operands[*first].variables.end());
  inputs.erase(first);
  while (!inputs.empty()) {
    auto disconnected = std::stable_partition(inputs.begin(), inputs.end(), [&](size_t i) {
      return std::any_of(operands[i].variables.begin(), operands[i].variables.end(),
                         [&](const std::string& v) { return bound.contains(v); });
    });
    auto next = disconnected == inputs.begin() ? smallest(inputs.begin(), inputs.end())
                                               : smallest(inputs.begin(), disconnected);
    order.push_back(*next);
    bound.insert(operands[*next].variables.begin(), operands[*next].variables.end());
    inputs.erase(next);
  }
  return order;
}

}  // namespace

TEST_CASE("joins between operators start from the fewest rows and take connected inputs, cheapest first") {
  const ExecutorCosts costs{.perCandidate = 0.01, .perRow = 0.02};
  // ?c's 5 rows join nothing joined yet: they wait until ?b connects them.
  const std::vector<JoinOperand> operands{{100, {"a", "b"}}, {10, {"a"}}, {5, {"c"}}, {50, {"b", "c"}}};
  CHECK(operatorJoinOrder(operands, costs) == std::vector<size_t>{2, 3, 0, 1});
  // Nothing connected: a cross product with the fewest rows first.
  CHECK(operatorJoinOrder({{30, {"x"}}, {20, {"y"}}, {40, {"z"}}}, costs) == std::vector<size_t>{1, 0, 2});
  CHECK(operatorJoinOrder({}, costs).empty());
  CHECK(gsparql::engine::hashJoinCost(costs, 10, 20, 20) == doctest::Approx(0.01 * 30 + 0.02 * 20));
}

TEST_CASE("the priced order is the planner's order of before, whatever the constants, zero included") {
  std::mt19937 random(11);
  const std::vector<std::string> names{"a", "b", "c", "d", "e", "f"};
  for (int trial = 0; trial < 500; ++trial) {
    std::vector<JoinOperand> operands(2 + random() % 6);
    for (JoinOperand& o : operands) {
      o.rows = static_cast<double>(random() % 50);  // ties included
      for (const auto& name : names) {
        if (random() % 3 == 0) o.variables.push_back(name);
      }
    }
    const double perCandidate = trial % 5 == 0 ? 0 : (random() % 100) / 10.0;
    const double perRow = trial % 7 == 0 ? 0 : (random() % 100) / 10.0;
    CAPTURE(trial);
    CHECK(operatorJoinOrder(operands, {.perCandidate = perCandidate, .perRow = perRow}) ==
          smallestConnectedFirst(operands));
  }
}
