#include "engine/optimizer/cost_model.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

namespace gsparql::engine {
namespace {

constexpr size_t kConstants = 4;
using Vector = std::array<double, kConstants>;

Vector featuresOf(const PlanWork& work) { return {work.bgps, work.steps, work.candidates, work.rows}; }

ExecutorCosts costsOf(const Vector& x) { return {x[0], x[1], x[2], x[3]}; }

// Solves the normal equations of the constants in `used` (the others 0) by
// Gaussian elimination with partial pivoting; nullopt when they are singular.
std::optional<Vector> leastSquares(const std::vector<CostSample>& samples, unsigned used) {
  std::array<std::array<double, kConstants + 1>, kConstants> system{};
  std::array<size_t, kConstants> index{};
  size_t n = 0;
  for (size_t i = 0; i < kConstants; ++i) {
    if (used & (1u << i)) index[n++] = i;
  }
  for (const CostSample& s : samples) {
    // Divided by the measured time: the error each sample counts is relative.
    const Vector f = featuresOf(s.work);
    for (size_t r = 0; r < n; ++r) {
      for (size_t c = 0; c < n; ++c) system[r][c] += f[index[r]] * f[index[c]] / (s.microseconds * s.microseconds);
      system[r][n] += f[index[r]] / s.microseconds;
    }
  }
  for (size_t col = 0; col < n; ++col) {
    size_t pivot = col;
    for (size_t r = col + 1; r < n; ++r) {
      if (std::abs(system[r][col]) > std::abs(system[pivot][col])) pivot = r;
    }
    if (std::abs(system[pivot][col]) < 1e-300) return std::nullopt;
    std::swap(system[col], system[pivot]);
    for (size_t r = 0; r < n; ++r) {
      if (r == col) continue;
      const double factor = system[r][col] / system[col][col];
      for (size_t c = col; c <= n; ++c) system[r][c] -= factor * system[col][c];
    }
  }
  Vector x{};
  for (size_t r = 0; r < n; ++r) x[index[r]] = system[r][n] / system[r][r];
  return x;
}

double relativeSquaredError(const std::vector<CostSample>& samples, const ExecutorCosts& costs) {
  double error = 0;
  for (const CostSample& s : samples) {
    const double relative = s.work.cost(costs) / s.microseconds - 1;
    error += relative * relative;
  }
  return error;
}

}  // namespace

double stepCost(const ExecutorCosts& costs, const PlanStep& step) {
  return costs.perStep + costs.perCandidate * step.estimatedCandidates + costs.perRow * step.estimatedRows;
}

double componentCost(const ExecutorCosts& costs, const ComponentPlan& plan) {
  double cost = 0;
  for (const PlanStep& step : plan.steps) cost += stepCost(costs, step);
  return cost;
}

double planCost(const ExecutorCosts& costs, const BgpPlan& plan) {
  double cost = costs.perBgp;
  for (const ComponentPlan& component : plan.components) cost += componentCost(costs, component);
  return cost;
}

double componentCountCost(const ExecutorCosts& costs, const ComponentPlan& plan, size_t leaves) {
  const double rowsBefore = leaves == 0 ? 1 : plan.steps[leaves - 1].estimatedRows;
  double cost = 0;
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    const PlanStep& step = plan.steps[i];
    const double leafCandidates = step.checks.empty() ? rowsBefore : step.estimatedCandidates;
    cost += i < leaves ? stepCost(costs, step) : costs.perStep + costs.perCandidate * leafCandidates;
  }
  return cost;
}

double countCost(const ExecutorCosts& costs, const BgpPlan& plan) {
  double cost = costs.perBgp;
  for (const ComponentPlan& component : plan.components) {
    cost += componentCountCost(costs, component, component.countedLeavesFrom.value_or(component.steps.size()));
  }
  return cost;
}

void PlanWork::add(const BgpPlan& plan) {
  bgps += 1;
  for (const ComponentPlan& component : plan.components) {
    for (const PlanStep& step : component.steps) {
      steps += 1;
      candidates += step.estimatedCandidates;
      rows += step.estimatedRows;
    }
  }
}

// Non-negative least squares by trying every set of constants that may be
// non-zero (16 with four constants): the best unconstrained solution on a
// set that has no negative constant is the constrained optimum's candidate.
ExecutorCosts fitCosts(const std::vector<CostSample>& samples) {
  if (samples.empty()) throw std::invalid_argument("fitCosts needs measured samples");
  for (const CostSample& s : samples) {
    if (!(s.microseconds > 0)) throw std::invalid_argument("fitCosts needs positive times");
  }
  Vector best{};
  double bestError = std::numeric_limits<double>::infinity();
  for (unsigned used = 1; used < (1u << kConstants); ++used) {
    const auto x = leastSquares(samples, used);
    if (!x) continue;
    bool negative = false;
    for (double v : *x) negative |= v < 0;
    if (negative) continue;
    const double error = relativeSquaredError(samples, costsOf(*x));
    if (error < bestError) bestError = error, best = *x;
  }
  return costsOf(best);
}

}  // namespace gsparql::engine
