#include "engine/optimizer/wander_join.h"

#include <algorithm>
#include <cmath>

#include "storage/graph_store.h"

namespace gsparql::engine {

WalkSample::WalkSample(const BoundBgp& bgp, const GraphStore& store, const WalkOptions& options, WalkMode mode)
    : bgp_(&bgp), store_(&store), matcher_(bgp, store), width_(bgp.columnCount()), walks_(options.walks),
      planner_(mode == WalkMode::Planner), alley_(options.alley), exact_(planner_),
      rows_((exact_ ? 1 : static_cast<size_t>(options.walks)) * bgp.columnCount(), 0),
      weights_(exact_ ? 1 : options.walks, 1.0), random_(options.seed) {}

bool WalkSample::canTake(const PlanStep& step) {
  if ((step.source == CandidateSource::Neighbours || step.source == CandidateSource::PredicateKeys) &&
      step.driver.bindsPredicate) {
    return false;
  }
  return std::none_of(step.checks.begin(), step.checks.end(), [](const EdgeUse& c) { return c.bindsPredicate; });
}

void WalkSample::extend(const PlanStep& step) {
  matcher_.prepare(step);
  const bool first = stepsTaken_++ == 0;
  if (deferredSeed_) {
    if (drawSeedEdges(*deferredSeed_, step, *bgp_)) return walkSeedEdges(step);
    const EdgeUse* check = planner_ ? constantCheckOnSeed(step) : nullptr;
    if (check != nullptr && walkFromConstant(step, *check)) return;
    walkSeed();
  }
  if (exact_ && extendExactly(step)) return;
  if (first && canDefer(step, *bgp_)) {
    const uint64_t keys = matcher_.candidatesOf(step, rows_.data()).count;
    if (keys > 0) {  // none: the walks die at once
      deferredSeed_ = step;
      candidates_ = static_cast<double>(keys);
      return;
    }
  }
  if (exact_) spreadWalks();
  double candidateSum = 0;
  for (size_t w = 0; w < weights_.size(); ++w) {
    if (weights_[w] == 0) continue;
    uint32_t* row = rows_.data() + w * width_;
    const StepMatcher::Candidates candidates = matcher_.candidatesOf(step, row);
    candidateSum += weights_[w] * static_cast<double>(candidates.count);
    weights_[w] *= alley_ && intersects(step, candidates) ? chooseSurvivor(step, candidates, row)
                                                          : chooseAndCheck(step, candidates, row);
  }
  candidates_ = weights_.empty() ? 0 : candidateSum / static_cast<double>(weights_.size());
}

bool WalkSample::intersects(const PlanStep& step, const StepMatcher::Candidates& candidates) {
  const bool list = step.source == CandidateSource::Neighbours || step.source == CandidateSource::PredicateKeys ||
                    step.source == CandidateSource::Constants;
  return list && (!step.checks.empty() || !step.predicateVertexChecks.empty()) && candidates.count <= kAlleyScanLimit;
}

double WalkSample::chooseAndCheck(const PlanStep& step, const StepMatcher::Candidates& candidates, uint32_t* row) {
  if (candidates.count == 0) return 0;
  row[step.vertex] = candidates[step.source == CandidateSource::Constant ? 0 : random_.below(candidates.count)];
  return matcher_.checksHold(step, row) ? static_cast<double>(candidates.count) : 0;
}

double WalkSample::chooseSurvivor(const PlanStep& step, const StepMatcher::Candidates& candidates, uint32_t* row) {
  uint64_t survivors = 0;
  uint32_t chosen = 0;
  for (uint64_t i = 0; i < candidates.count; ++i) {
    row[step.vertex] = candidates[i];
    // A reservoir of one: the k-th survivor replaces the choice with chance 1/k.
    if (matcher_.checksHold(step, row) && random_.below(++survivors) == 0) chosen = candidates[i];
  }
  row[step.vertex] = chosen;
  return static_cast<double>(survivors);
}

bool WalkSample::extendExactly(const PlanStep& step) {
  const size_t held = weights_.size();
  std::vector<StepMatcher::Candidates> perRow;  // looked up once: counted, then taken
  perRow.reserve(held);
  uint64_t total = 0;
  for (size_t r = 0; r < held; ++r) {
    perRow.push_back(matcher_.candidatesOf(step, rows_.data() + r * width_));
    total += perRow.back().count;
    if (total > walks_) return false;
  }
  std::vector<uint32_t> after;
  std::vector<uint32_t> row(width_);
  for (size_t r = 0; r < held; ++r) {
    std::copy_n(rows_.data() + r * width_, width_, row.begin());
    const StepMatcher::Candidates& candidates = perRow[r];
    for (uint64_t i = 0; i < candidates.count; ++i) {
      row[step.vertex] = candidates[i];
      if (matcher_.checksHold(step, row.data())) after.insert(after.end(), row.begin(), row.end());
    }
  }
  rows_ = std::move(after);
  weights_.assign(rows_.size() / width_, 1.0);
  candidates_ = static_cast<double>(total);
  return true;
}

void WalkSample::spreadWalks() {
  const size_t held = weights_.size();
  std::vector<uint32_t> walks(walks_ * width_, 0);
  for (size_t w = 0; w < walks_ && held > 0; ++w) {
    const size_t from = held == 1 ? 0 : random_.below(held);
    std::copy_n(rows_.data() + from * width_, width_, walks.data() + w * width_);
  }
  rows_ = std::move(walks);
  weights_.assign(walks_, static_cast<double>(held));
  exact_ = false;
}

bool WalkSample::canDefer(const PlanStep& step, const BoundBgp& bgp) {
  return step.source == CandidateSource::PredicateKeys && step.checks.empty() &&
         step.predicateVertexChecks.empty() && !bgp.edges[step.driver.edge].predicateIsVariable;
}

bool WalkSample::drawSeedEdges(const PlanStep& seed, const PlanStep& next, const BoundBgp& bgp) {
  const EdgeUse& driver = next.driver;
  return canDefer(seed, bgp) && next.source == CandidateSource::Neighbours && driver.boundVertex == seed.vertex &&
         driver.direction == seed.driver.direction && !driver.bindsPredicate &&
         !bgp.edges[driver.edge].predicateIsVariable &&
         bgp.edges[driver.edge].predicate == bgp.edges[seed.driver.edge].predicate;
}

void WalkSample::walkSeedEdges(const PlanStep& step) {
  const PredicateAdjacency& adjacency =
      store_->adjacency(step.driver.direction).predicate(bgp_->edges[step.driver.edge].predicate);
  const uint64_t edges = adjacency.edgeCount();  // at least the keys, of which there are some
  rows_.assign(walks_ * width_, 0);
  weights_.assign(walks_, static_cast<double>(edges));
  for (size_t w = 0; w < walks_; ++w) {
    uint32_t* row = rows_.data() + w * width_;
    const uint64_t e = random_.below(edges);
    // Element by element: a walk checks the few blocks it reads, not the arrays.
    row[deferredSeed_->vertex] = adjacency.key(adjacency.keyIndexOfEdge(e));
    row[step.vertex] = adjacency.neighbourAt(e);
    if (!matcher_.checksHold(step, row)) weights_[w] = 0;
  }
  candidates_ = static_cast<double>(edges);
  exact_ = false;
  deferredSeed_.reset();
}

const EdgeUse* WalkSample::constantCheckOnSeed(const PlanStep& step) const {
  if (step.source != CandidateSource::Constant) return nullptr;
  for (const EdgeUse& check : step.checks) {
    if (check.boundVertex == deferredSeed_->vertex && !check.bindsPredicate &&
        !bgp_->edges[check.edge].predicateIsVariable) {
      return &check;
    }
  }
  return nullptr;
}

bool WalkSample::walkFromConstant(const PlanStep& step, const EdgeUse& check) {
  const uint32_t constant = bgp_->vertices[step.vertex].id;
  const auto reverse = check.direction == pcsr::Direction::Out ? pcsr::Direction::In : pcsr::Direction::Out;
  const std::span<const uint32_t> reaching =
      store_->adjacency(reverse).predicate(bgp_->edges[check.edge].predicate).neighbours(constant);
  const std::span<const uint32_t> keys = matcher_.candidatesOf(*deferredSeed_, rows_.data()).list;
  // A walk from either side survives with the rows' share of that side's list: the shorter side is the better.
  if (reaching.size() >= keys.size()) return false;
  const uint32_t seed = deferredSeed_->vertex;
  const auto bindBoth = [&](uint32_t* row, uint32_t key) {
    row[seed] = key;
    row[step.vertex] = constant;
    return std::binary_search(keys.begin(), keys.end(), key) && matcher_.checksHold(step, row);
  };
  candidates_ = static_cast<double>(keys.size());  // one per seed row, as the step's executor sees it
  deferredSeed_.reset();
  if (reaching.size() <= walks_) {  // counted: each neighbour a row where it is a key
    std::vector<uint32_t> row(rows_.begin(), rows_.begin() + static_cast<std::ptrdiff_t>(width_)), after;
    for (uint32_t key : reaching) {
      if (bindBoth(row.data(), key)) after.insert(after.end(), row.begin(), row.end());
    }
    rows_ = std::move(after);
    weights_.assign(rows_.size() / width_, 1.0);
    return true;
  }
  spreadWalks();
  for (size_t w = 0; w < walks_; ++w) {
    weights_[w] = bindBoth(rows_.data() + w * width_, reaching[random_.below(reaching.size())])
                      ? static_cast<double>(reaching.size())
                      : 0;
  }
  return true;
}

void WalkSample::walkSeed() {
  if (exact_) spreadWalks();
  for (size_t w = 0; w < weights_.size(); ++w) {
    uint32_t* row = rows_.data() + w * width_;
    weights_[w] *= chooseAndCheck(*deferredSeed_, matcher_.candidatesOf(*deferredSeed_, row), row);
  }
  deferredSeed_.reset();
}

StepEstimate WalkSample::estimate() const {
  StepEstimate e;
  if (deferredSeed_) {
    return {.rows = candidates_, .candidates = candidates_, .relativeError = 0,
            .survivors = std::min<uint64_t>(static_cast<uint64_t>(candidates_), walks_), .exact = true};
  }
  if (exact_) {
    const auto rows = static_cast<double>(weights_.size());
    return {.rows = rows, .candidates = candidates_, .relativeError = 0, .survivors = weights_.size(), .exact = true};
  }
  if (weights_.empty()) return e;
  double sum = 0, sumOfSquares = 0;
  for (double w : weights_) {
    sum += w;
    sumOfSquares += w * w;
    e.survivors += w > 0;
  }
  const double n = static_cast<double>(weights_.size());
  e.rows = sum / n;
  e.candidates = candidates_;
  if (e.rows > 0) e.relativeError = std::sqrt(std::max(0.0, sumOfSquares / n - e.rows * e.rows) / n) / e.rows;
  return e;
}

double rowsAfter(const StepEstimate& step, double rowsBefore, uint64_t survivorsBefore, std::optional<double> star) {
  if (step.exact || step.survivors > 0 || survivorsBefore == 0) return step.rows;
  const double halfAWalk = rowsBefore * 0.5 / static_cast<double>(survivorsBefore);
  // A star the sets count no rows for is no second guess: they keep only the commonest stars.
  return star && *star > 0 ? std::sqrt(halfAWalk * *star) : halfAWalk;
}

std::vector<StepEstimate> wanderJoin(const ComponentPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                                     const WalkOptions& options, WalkMode mode) {
  std::vector<StepEstimate> estimates;
  WalkSample sample(bgp, store, options, mode);
  for (const PlanStep& step : plan.steps) {
    if (!WalkSample::canTake(step) || options.walks == 0) break;
    sample.extend(step);
    estimates.push_back(sample.estimate());
  }
  return estimates;
}

}  // namespace gsparql::engine
