#include "engine/optimizer/sub_pattern_plan.h"

#include <algorithm>
#include <bit>
#include <limits>

#include "engine/optimizer/plan_enumerator.h"

namespace gsparql::engine {
namespace {

using Set = size_t;  // bit i: component[i]

// Walks sent per plan: the estimator's default for four plans, shared, and at least this.
constexpr uint32_t kLeastWalks = 256;

class SubPatterns {
 public:
  SubPatterns(const std::vector<uint32_t>& component, const StepBuilder& start)
      : component_(component),
        plans_(cheapestPlans(component, start, std::nullopt, ExecutorCosts{.perRow = 1}, true)),
        statistics_(plans_.size(), 0), walked_(plans_.size(), 0), walks_(plans_.size(), 0) {}

  // Every set's rows: the statistics', then the walks' where they reach.
  void estimate(const BoundBgp& bgp, const GraphStore& store, WalkEstimator& estimator, uint64_t seed) {
    std::vector<bool> extended(plans_.size());
    for (Set set = 1; set < plans_.size(); ++set) {
      if (!plans_[set]) continue;
      const auto& steps = plans_[set]->plan.steps;
      statistics_[set] = steps.back().estimatedRows;
      if (steps.size() > 1) extended[setOf(plans_[set]->plan, steps.size() - 1)] = true;
    }
    std::vector<ComponentPlan> sent;
    for (Set set = 1; set < plans_.size(); ++set) {
      if (plans_[set] && !extended[set]) sent.push_back(plans_[set]->plan);
    }
    const auto share = static_cast<uint32_t>(4ull * estimator.defaultWalks() / std::max<size_t>(1, sent.size()));
    const WalkOptions walks{.walks = std::max(kLeastWalks, share), .seed = seed};
    const auto estimates = estimator.walkBatch(sent, bgp, store, walks);  // one launch on the GPU; not trawled
    for (size_t p = 0; p < sent.size(); ++p) takeWalks(sent[p], estimates[p], walks.walks);
  }

  // The order of least rows over its steps, each step adding a vertex
  // adjacent to the set before it; empty where none binds every vertex.
  std::vector<uint32_t> cheapestOrder() const {
    const double none = std::numeric_limits<double>::infinity();
    std::vector<double> cost(plans_.size(), none);
    std::vector<Set> before(plans_.size(), 0);
    for (Set set = 1; set < plans_.size(); ++set) {
      if (!plans_[set]) continue;
      if ((set & (set - 1)) == 0) cost[set] = rowsOf(set);
      for (size_t i = 0; i < component_.size(); ++i) {
        const Set rest = set & ~(Set{1} << i);
        if (!(set >> i & 1) || rest == 0 || cost[rest] == none ||
            !plans_[rest]->builder.cheapestDriver(component_[i])) {
          continue;
        }
        if (cost[rest] + rowsOf(set) < cost[set]) {
          cost[set] = cost[rest] + rowsOf(set);
          before[set] = rest;
        }
      }
    }
    std::vector<uint32_t> order;
    if (cost.back() == none) return order;
    for (Set set = plans_.size() - 1; set != 0; set = before[set]) {
      const Set added = set & ~before[set];
      order.push_back(component_[static_cast<size_t>(std::countr_zero(added))]);
    }
    std::reverse(order.begin(), order.end());
    return order;
  }

 private:
  Set setOf(const ComponentPlan& plan, size_t steps) const {
    Set set = 0;
    for (size_t k = 0; k < steps; ++k) {
      const auto i = std::find(component_.begin(), component_.end(), plan.steps[k].vertex) - component_.begin();
      set |= Set{1} << i;
    }
    return set;
  }

  // The walks' rows of each prefix of `plan`, averaged with those of other
  // plans that share the prefix.
  void takeWalks(const ComponentPlan& plan, const std::vector<StepEstimate>& steps, uint32_t walks) {
    double before = 1;
    uint64_t survivorsBefore = walks;
    for (size_t k = 0; k < steps.size() && survivorsBefore > 0; ++k) {
      const Set set = setOf(plan, k + 1);
      const double rows = rowsAfter(steps[k], before, survivorsBefore);
      walked_[set] += rows;
      ++walks_[set];
      before = rows;
      survivorsBefore = steps[k].survivors;
    }
  }

  // The walks' rows where they reached the set, else the statistics'.
  double rowsOf(Set set) const { return walks_[set] > 0 ? walked_[set] / walks_[set] : statistics_[set]; }

  const std::vector<uint32_t>& component_;
  std::vector<std::optional<PartialPlan>> plans_;  // per set: the statistics' cheapest
  std::vector<double> statistics_;                 // per set: the rows of that plan by the statistics
  std::vector<double> walked_;                     // per set: the sum of the walks' rows ...
  std::vector<double> walks_;                      // ... over this many plans' walks
};

}  // namespace

std::optional<PartialPlan> planFromSubPatterns(const std::vector<uint32_t>& component, const StepBuilder& start,
                                               const std::optional<WalkSample>& sample, const BoundBgp& bgp,
                                               const GraphStore& store, WalkEstimator& estimator, uint64_t seed) {
  if (component.size() > kMaxSubPatternVertices) return std::nullopt;
  SubPatterns sets(component, start);
  sets.estimate(bgp, store, estimator, seed);
  const std::vector<uint32_t> order = sets.cheapestOrder();
  if (order.empty()) return std::nullopt;
  PartialPlan p{start, PrefixEstimate(sample), {}};
  p.add(p.builder.seedStep(order.front()));
  for (size_t k = 1; k < order.size(); ++k) p.add(p.builder.extendStep(order[k]));
  return p;
}

}  // namespace gsparql::engine
