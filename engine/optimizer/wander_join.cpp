#include "engine/optimizer/wander_join.h"

#include <algorithm>
#include <cmath>

#include "engine/cpu/set_operations.h"
#include "storage/graph_store.h"

namespace gsparql::engine {
namespace {

// SplitMix64: small, fast and good enough to pick candidates.
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n), n > 0: the top 53 bits as a fraction (a bias far below the walks' noise).
  uint64_t below(uint64_t n) {
    const double fraction = static_cast<double>(next() >> 11) * 0x1.0p-53;
    return std::min(n - 1, static_cast<uint64_t>(fraction * static_cast<double>(n)));
  }

 private:
  uint64_t state_;
};

bool walkable(const PlanStep& step) {
  if ((step.source == CandidateSource::Neighbours || step.source == CandidateSource::PredicateKeys) &&
      step.driver.bindsPredicate) {
    return false;
  }
  return std::none_of(step.checks.begin(), step.checks.end(), [](const EdgeUse& c) { return c.bindsPredicate; });
}

// One walk at a time through the walkable steps of a plan.
class Walker {
 public:
  Walker(const ComponentPlan& plan, size_t steps, const BoundBgp& bgp, const GraphStore& store)
      : plan_(plan), steps_(steps), bgp_(bgp), store_(store), row_(bgp.columnCount(), 0) {
    for (size_t s = 0; s < steps; ++s) {
      if (!plan.steps[s].predicateVertexChecks.empty()) predicateVertex_ = predicateVertexIds(store);
    }
  }

  // Sets each step's estimate of one walk in `weights`: 0 from the step
  // where it dies on.
  void walk(Random& random, std::vector<double>& weights) {
    double weight = 1;
    size_t s = 0;
    for (; s < steps_; ++s) {
      weight *= choose(plan_.steps[s], random);
      if (weight == 0 || !checksHold(plan_.steps[s])) break;
      weights[s] = weight;
    }
    std::fill(weights.begin() + static_cast<std::ptrdiff_t>(s), weights.end(), 0.0);
  }

 private:
  const BoundEdge& edgeOf(const EdgeUse& use) const { return bgp_.edges[use.edge]; }
  uint32_t predicateOf(const EdgeUse& use) const {
    const BoundEdge& e = edgeOf(use);
    return e.predicateIsVariable ? row_[bgp_.predicateColumn(e)] : e.predicate;
  }
  std::span<const uint32_t> neighbours(const EdgeUse& use) const {
    return store_.adjacency(use.direction).predicate(predicateOf(use)).neighbours(row_[use.boundVertex]);
  }

  // Binds the step's vertex to a random candidate; returns how many there
  // were (the inverse of the choice's probability), 0 when none.
  double choose(const PlanStep& step, Random& random) {
    uint32_t& cell = row_[step.vertex];
    switch (step.source) {
      case CandidateSource::Constant: cell = bgp_.vertices[step.vertex].id; return 1;
      case CandidateSource::AllVertices: {
        const uint64_t n = store_.catalog().vertexCount;
        if (n == 0) return 0;
        cell = static_cast<uint32_t>(random.below(n));
        return static_cast<double>(n);
      }
      case CandidateSource::PredicateKeys: {
        const auto keys = store_.adjacency(step.driver.direction).predicate(predicateOf(step.driver)).keys();
        return pick(keys, random, cell);
      }
      case CandidateSource::Neighbours: return pick(neighbours(step.driver), random, cell);
    }
    return 0;
  }

  static double pick(std::span<const uint32_t> candidates, Random& random, uint32_t& cell) {
    if (candidates.empty()) return 0;
    cell = candidates[random.below(candidates.size())];
    return static_cast<double>(candidates.size());
  }

  bool checksHold(const PlanStep& step) const {
    for (const EdgeUse& check : step.checks) {
      const BoundEdge& e = edgeOf(check);
      const uint32_t target = row_[check.boundVertex == step.vertex ? (e.from == check.boundVertex ? e.to : e.from)
                                                                    : step.vertex];
      if (!cpu::containsSorted(neighbours(check), target)) return false;
    }
    for (const auto& check : step.predicateVertexChecks) {
      if (predicateVertex_[row_[check.predicateColumn]] != row_[check.vertex]) return false;
    }
    return true;
  }

  const ComponentPlan& plan_;
  size_t steps_;
  const BoundBgp& bgp_;
  const GraphStore& store_;
  std::vector<uint32_t> row_;  // the walk's vertex and predicate columns
  std::vector<uint32_t> predicateVertex_;
};

}  // namespace

std::vector<StepEstimate> wanderJoin(const ComponentPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                                     const WalkOptions& options) {
  const size_t steps = static_cast<size_t>(
      std::find_if_not(plan.steps.begin(), plan.steps.end(), walkable) - plan.steps.begin());
  if (steps == 0 || options.walks == 0) return {};
  Walker walker(plan, steps, bgp, store);
  Random random(options.seed);
  std::vector<double> weights(steps), sum(steps, 0), sumOfSquares(steps, 0);
  std::vector<uint64_t> survivors(steps, 0);
  for (uint32_t w = 0; w < options.walks; ++w) {
    walker.walk(random, weights);
    for (size_t s = 0; s < steps; ++s) {
      sum[s] += weights[s];
      sumOfSquares[s] += weights[s] * weights[s];
      survivors[s] += weights[s] > 0;
    }
  }
  std::vector<StepEstimate> estimates(steps);
  const double n = options.walks;
  for (size_t s = 0; s < steps; ++s) {
    StepEstimate& e = estimates[s];
    e.rows = sum[s] / n;
    e.survivors = survivors[s];
    if (e.rows > 0) {
      const double variance = std::max(0.0, sumOfSquares[s] / n - e.rows * e.rows);
      e.relativeError = std::sqrt(variance / n) / e.rows;
    }
  }
  return estimates;
}

}  // namespace gsparql::engine
