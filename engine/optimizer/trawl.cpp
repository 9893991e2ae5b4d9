#include "engine/optimizer/trawl.h"

#include <algorithm>
#include <cmath>

#include "engine/optimizer/split_mix.h"
#include "engine/optimizer/step_matcher.h"

namespace gsparql::engine {
namespace {

class Trawler {
 public:
  Trawler(const BoundBgp& bgp, const GraphStore& store, const TrawlOptions& options)
      : matcher_(bgp, store), width_(bgp.columnCount()), options_(options), random_(options.seed),
        prefixes_(options.prefixes, Rows{std::vector<uint32_t>(width_, 0), {1.0}}) {}

  StepEstimate take(const PlanStep& step) {
    matcher_.prepare(step);
    std::vector<double> sums;  // per prefix: the rows it estimates
    double candidates = 0;
    uint64_t held = 0;
    for (Rows& prefix : prefixes_) {
      Rows next;
      for (size_t r = 0; r < prefix.weights.size(); ++r) {
        candidates += follow(step, prefix.rows.data() + r * width_, prefix.weights[r], next);
      }
      if (next.weights.size() > options_.frontier) keepSome(next, options_.frontier);
      held += next.weights.size();
      sums.push_back(sumOf(next.weights));
      prefix = std::move(next);
    }
    return estimateOf(sums, candidates / static_cast<double>(prefixes_.size()), held);
  }

 private:
  struct Rows {
    std::vector<uint32_t> rows;  // width_ columns each
    std::vector<double> weights;
  };

  // Appends to `next` the candidates of `row` (all, or options_.perRow drawn
  // at random) that pass the step's checks; returns the candidates' weight.
  double follow(const PlanStep& step, const uint32_t* row, double weight, Rows& next) {
    const StepMatcher::Candidates candidates = matcher_.candidatesOf(step, row);
    const uint64_t n = candidates.count;
    const bool drawn = n > options_.perRow;
    const uint64_t taken = drawn ? options_.perRow : n;
    const double each = drawn ? weight * static_cast<double>(n) / static_cast<double>(taken) : weight;
    candidate_.assign(row, row + width_);
    for (uint64_t i = 0; i < taken; ++i) {
      candidate_[step.vertex] = candidates[drawn ? random_.below(n) : i];
      if (!matcher_.checksHold(step, candidate_.data())) continue;
      next.rows.insert(next.rows.end(), candidate_.begin(), candidate_.end());
      next.weights.push_back(each);
    }
    return weight * static_cast<double>(n);
  }

  // Keeps `k` of the rows drawn without replacement, each weighted by the
  // inverse of its chance to be kept.
  void keepSome(Rows& rows, size_t k) {
    const size_t n = rows.weights.size();
    for (size_t i = 0; i < k; ++i) {
      const size_t j = i + random_.below(n - i);
      std::swap(rows.weights[i], rows.weights[j]);
      std::swap_ranges(rows.rows.begin() + static_cast<std::ptrdiff_t>(i * width_),
                       rows.rows.begin() + static_cast<std::ptrdiff_t>((i + 1) * width_),
                       rows.rows.begin() + static_cast<std::ptrdiff_t>(j * width_));
    }
    rows.weights.resize(k);
    rows.rows.resize(k * width_);
    const double scale = static_cast<double>(n) / static_cast<double>(k);
    for (double& w : rows.weights) w *= scale;
  }

  static double sumOf(const std::vector<double>& values) {
    double sum = 0;
    for (double v : values) sum += v;
    return sum;
  }

  static StepEstimate estimateOf(const std::vector<double>& sums, double candidates, uint64_t held) {
    const auto n = static_cast<double>(sums.size());
    double sumOfSquares = 0;
    for (double s : sums) sumOfSquares += s * s;
    StepEstimate e{.rows = sumOf(sums) / n, .candidates = candidates, .survivors = held};
    if (e.rows > 0) e.relativeError = std::sqrt(std::max(0.0, sumOfSquares / n - e.rows * e.rows) / n) / e.rows;
    return e;
  }

  StepMatcher matcher_;
  size_t width_;
  TrawlOptions options_;
  SplitMix64 random_;
  std::vector<Rows> prefixes_;
  std::vector<uint32_t> candidate_;  // the row being extended, reused
};

}  // namespace

std::vector<StepEstimate> trawl(const ComponentPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                                const TrawlOptions& options) {
  std::vector<StepEstimate> estimates;
  if (options.prefixes == 0 || options.frontier == 0 || options.perRow == 0) return estimates;
  Trawler trawler(bgp, store, options);
  for (const PlanStep& step : plan.steps) {
    if (!WalkSample::canTake(step)) break;
    estimates.push_back(trawler.take(step));
  }
  return estimates;
}

void trawlWhereFewSurvive(const ComponentPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                          const TrawlOptions& options, std::vector<StepEstimate>& walks) {
  const auto few = std::find_if(walks.begin(), walks.end(), [&](const StepEstimate& e) {
    return !e.exact && e.survivors < options.fewSurvivors;
  });
  if (few == walks.end()) return;
  const std::vector<StepEstimate> trawled = trawl(plan, bgp, store, options);
  for (size_t i = static_cast<size_t>(few - walks.begin()); i < std::min(walks.size(), trawled.size()); ++i) {
    const bool fewHere = !walks[i].exact && walks[i].survivors < options.fewSurvivors;
    if (fewHere && trawled[i].relativeError < walks[i].relativeError) walks[i] = trawled[i];
  }
}

}  // namespace gsparql::engine
