#include "engine/optimizer/plan_enumerator.h"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <tuple>

#include "engine/optimizer/cost_model.h"

namespace gsparql::engine {
namespace {

struct Candidate {
  PartialPlan plan;
  double cost = 0;
};

void keepCheaper(std::optional<Candidate>& best, Candidate candidate) {
  if (!best || candidate.cost < best->cost) best = std::move(candidate);
}

// The cheapest way found into a set whose plan is made only once it is
// visited: from which set, by which vertex.
struct Offer {
  size_t from = 0;
  size_t vertex = 0;
};

class Enumerator {
 public:
  Enumerator(const std::vector<uint32_t>& component, const StepBuilder& start, const std::optional<WalkSample>& sample,
             const ExecutorCosts& costs, double below)
      : component_(component),
        costs_(costs),
        below_(below),
        // A step's rows are those of the set it completes, whatever order
        // bound the set (in expectation, for walks), so where the model
        // prices steps and rows alone, every way into a set costs the same
        // beyond the cost of the set it comes from: the cheapest such set is
        // the way in, and the set's step is estimated once instead of from
        // each of its predecessors. Candidates depend on the step's driver,
        // so where they are priced, each way in is estimated.
        byPredecessor_(costs.perCandidate == 0),
        best_(size_t{1} << component.size()),
        offers_(byPredecessor_ ? best_.size() : 0) {
    for (size_t i = 0; i < component.size(); ++i) {
      Candidate seed{{start, PrefixEstimate(sample), {}}, 0};
      seed.plan.add(seed.plan.builder.seedStep(component[i]));
      seed.cost = stepCost(costs, seed.plan.plan.steps.back());
      best_[size_t{1} << i] = std::move(seed);
    }
  }

  std::vector<std::optional<PartialPlan>> run(bool keepAll) {
    std::vector<std::optional<PartialPlan>> plans(best_.size());
    for (size_t set = 1; set < best_.size(); ++set) {
      if (byPredecessor_ && offers_[set]) best_[set] = extend(*best_[offers_[set]->from], offers_[set]->vertex);
      if (best_[set] && best_[set]->cost >= below_) best_[set].reset();  // nor will a larger set made from it cost less
      if (!best_[set]) continue;
      offerSupersets(set);
      if (keepAll || set + 1 == best_.size()) plans[set] = best_[set]->plan;
      // By predecessor, larger sets are made from this one when they are
      // visited: every plan stays to the end (at most 2^12, each a few KB).
      if (!byPredecessor_) best_[set].reset();
    }
    return plans;
  }

 private:
  Candidate extend(const Candidate& from, size_t i) const {
    Candidate next = from;
    StepBuilder& builder = next.plan.builder;
    const bool adjacent = builder.cheapestDriver(component_[i]).has_value();
    next.plan.add(adjacent ? builder.extendStep(component_[i]) : builder.seedStep(component_[i]));
    next.cost += stepCost(costs_, next.plan.plan.steps.back());
    return next;
  }

  // Offers each set one vertex larger the way in from `set`. Only where no
  // vertex is adjacent (a predicate variable that also names a vertex joins
  // them, no edge does), a vertex starts anew.
  void offerSupersets(size_t set) {
    const size_t n = component_.size();
    const StepBuilder& bound = best_[set]->plan.builder;
    std::vector<bool> adjacent(n);
    for (size_t i = 0; i < n; ++i) adjacent[i] = !(set >> i & 1) && bound.cheapestDriver(component_[i]).has_value();
    const bool joined = std::find(adjacent.begin(), adjacent.end(), true) != adjacent.end();
    for (size_t i = 0; i < n; ++i) {
      const size_t bit = size_t{1} << i;
      if ((set & bit) || (joined && !adjacent[i])) continue;
      if (!byPredecessor_) {
        keepCheaper(best_[set | bit], extend(*best_[set], i));
      } else if (!offers_[set | bit] || best_[set]->cost < best_[offers_[set | bit]->from]->cost) {
        offers_[set | bit] = Offer{set, i};
      }
    }
  }

  const std::vector<uint32_t>& component_;
  const ExecutorCosts& costs_;
  const double below_;
  const bool byPredecessor_;
  // best_[set]: the cheapest plan found that binds exactly the vertices of
  // `set` (bit i: component[i]). A step only ever adds a vertex, so every
  // way into a set is known before the set is visited.
  std::vector<std::optional<Candidate>> best_;
  std::vector<std::optional<Offer>> offers_;
};

}  // namespace

std::vector<std::optional<PartialPlan>> cheapestPlans(const std::vector<uint32_t>& component,
                                                     const StepBuilder& start,
                                                     const std::optional<WalkSample>& sample,
                                                     const ExecutorCosts& costs, bool keepAll, double below) {
  const size_t n = component.size();
  if (n == 0 || n > kMaxEnumeratedVertices) throw std::invalid_argument("cheapestPlan: component size out of range");
  return Enumerator(component, start, sample, costs, below).run(keepAll);
}

size_t connectedSets(const BoundBgp& bgp, const std::vector<uint32_t>& component) {
  const size_t n = component.size();
  if (n > kMaxEnumeratedVertices) throw std::invalid_argument("connectedSets: component size out of range");
  const auto indexOf = [&](uint32_t v) {
    return static_cast<size_t>(std::find(component.begin(), component.end(), v) - component.begin());
  };
  std::vector<size_t> neighbours(n);  // bit j of neighbours[i]: an edge joins component[i] and component[j]
  for (const BoundEdge& e : bgp.edges) {
    const size_t a = indexOf(e.from), b = indexOf(e.to);
    if (a < n && b < n && a != b) {
      neighbours[a] |= size_t{1} << b;
      neighbours[b] |= size_t{1} << a;
    }
  }
  // A connected set of two or more has a vertex (a leaf of a spanning
  // tree) whose removal leaves a connected set that it is adjacent to.
  std::vector<bool> connected(size_t{1} << n);
  size_t count = 0;
  for (size_t set = 1; set < connected.size(); ++set) {
    for (size_t rest = set; rest != 0 && !connected[set]; rest &= rest - 1) {
      const auto i = static_cast<size_t>(std::countr_zero(rest));
      const size_t others = set & ~(size_t{1} << i);
      connected[set] = others == 0 || (connected[others] && (neighbours[i] & others) != 0);
    }
    count += connected[set] ? 1 : 0;
  }
  return count;
}

std::optional<PartialPlan> cheapestPlan(const std::vector<uint32_t>& component, const StepBuilder& start,
                                        const std::optional<WalkSample>& sample, const ExecutorCosts& costs,
                                        double below) {
  return std::move(cheapestPlans(component, start, sample, costs, false, below).back());
}

// The approximate enumerator: greedy orders.

bool worthSeedingInstead(const ComponentPlan& plan, double ownCandidates) {
  if (plan.steps.size() < 2 || plan.steps[0].source != CandidateSource::Constant) return false;
  const double fanout = plan.steps[1].estimatedRows, vertices = static_cast<double>(plan.steps.size());
  return fanout >= kFanoutPerTrialStep * vertices * vertices && ownCandidates * kFewerOwnCandidates <= fanout;
}

double rowsOverSteps(const ComponentPlan& plan) {
  double rows = 0;
  for (const PlanStep& step : plan.steps) rows += step.estimatedRows;
  return rows;
}

namespace {

// The approximate enumerator's state: the bound vertices of earlier
// components it starts from.
class GreedyPlanner {
 public:
  explicit GreedyPlanner(const StepBuilder& start) : start_(start) {}

  // greedyPlan (plan_enumerator.h).
  PartialPlan plan(const std::vector<uint32_t>& component, const std::optional<WalkSample>& sample,
                   bool searchSeeds) const {
    PartialPlan best = greedyFrom(component, std::nullopt, sample);
    if (sample && rowsOverSteps(best.plan) >= kSeedSearchAbove) {
      if (!searchSeeds) return best;
      for (uint32_t seed : seedCandidates(component, *sample)) {
        PartialPlan trial = greedyFrom(component, seed, sample);
        if (rowsOverSteps(trial.plan) < rowsOverSteps(best.plan)) best = std::move(trial);
      }
    } else if (sample && widensFromConstant(best.plan)) {
      PartialPlan trial = greedyFrom(component, best.plan.steps[1].vertex, sample);
      if (rowsOverSteps(trial.plan) < rowsOverSteps(best.plan)) best = std::move(trial);
    }
    return best;
  }

  // The greedy plan from `seed`.
  PartialPlan planFrom(const std::vector<uint32_t>& component, uint32_t seed,
                       const std::optional<WalkSample>& sample) const {
    return greedyFrom(component, seed, sample);
  }

 private:
  static constexpr size_t kSampledSeeds = 2;

  // The greedy's one other seed below kSeedSearchAbove (worthSeedingInstead):
  // the vertex the constant's first step binds. The search for other seeds
  // costs more than such plans save.
  bool widensFromConstant(const ComponentPlan& plan) const {
    return plan.steps.size() >= 2 && worthSeedingInstead(plan, start_.seedCandidates(plan.steps[1].vertex));
  }

  PartialPlan greedyFrom(const std::vector<uint32_t>& component, std::optional<uint32_t> seed,
                         const std::optional<WalkSample>& sample) const {
    PartialPlan p{start_, PrefixEstimate(sample), {}};
    p.add(p.builder.seedStep(seed.value_or(p.builder.bestSeed(component))));
    for (size_t n = 1; n < component.size(); ++n) {
      if (!p.estimate.sampled() || !takeSampledStep(component, p)) p.add(statisticsStep(component, p.builder));
    }
    return p;
  }

  static PlanStep statisticsStep(const std::vector<uint32_t>& component, StepBuilder& builder) {
    const auto adjacent = builder.bestAdjacent(component);
    return adjacent ? builder.extendStep(*adjacent) : builder.seedStep(builder.bestSeed(component));
  }

  // Tries every vertex adjacent to the bound ones on a copy of the partial
  // plan and keeps the step whose walks estimate the fewest rows. Ties go
  // first to a vertex that makes others adjacent: a leaf taken now multiplies
  // every later step's rows by its fan-out, and can as well come after them
  // (two followers of a constant, one with a rare name: the other last);
  // then to the statistics' preference. The sample's copies share its random
  // state, so candidates are compared on the same random numbers. False when
  // walks can take none of them.
  static bool takeSampledStep(const std::vector<uint32_t>& component, PartialPlan& p) {
    using Rank = std::tuple<double, bool, double>;  // rows, closes all, the statistics' score
    std::optional<std::pair<PartialPlan, Rank>> best;
    for (uint32_t v : component) {
      if (p.builder.isBound(v)) continue;
      const auto driver = p.builder.cheapestDriver(v);
      if (!driver) continue;
      PartialPlan trial = p;
      const bool closes = trial.builder.closesAll(v);
      const double score = trial.builder.adjacencyScore(v, *driver);
      PlanStep step = trial.builder.extendStep(v);
      if (!WalkSample::canTake(step)) continue;
      trial.add(std::move(step));
      const Rank rank{trial.estimate.rows(), closes, score};
      if (!best || rank < best->second) best.emplace(std::move(trial), rank);
    }
    if (!best) return false;
    p = std::move(best->first);
    return true;
  }

  // The kSampledSeeds vertices other than the statistics' seed whose seed
  // step and best next step the walks estimate to make the fewest rows (a
  // look two steps ahead, which sees joins that are rarer than their parts).
  std::vector<uint32_t> seedCandidates(const std::vector<uint32_t>& component, const WalkSample& sample) const {
    std::vector<std::pair<double, uint32_t>> lookahead;
    for (uint32_t v : component) {
      PartialPlan trial{start_, PrefixEstimate(sample), {}};
      PlanStep seed = trial.builder.seedStep(v);
      if (!WalkSample::canTake(seed)) continue;
      trial.add(std::move(seed));
      if (component.size() > 1 && trial.estimate.rows() > 0) takeSampledStep(component, trial);
      lookahead.emplace_back(trial.estimate.rows(), v);
    }
    std::sort(lookahead.begin(), lookahead.end());
    const uint32_t statisticsSeed = start_.bestSeed(component);
    std::vector<uint32_t> seeds;
    for (size_t i = 0; i < lookahead.size() && seeds.size() < kSampledSeeds; ++i) {
      if (lookahead[i].second != statisticsSeed) seeds.push_back(lookahead[i].second);
    }
    return seeds;
  }

  StepBuilder start_;
};

}  // namespace

PartialPlan greedyPlan(const std::vector<uint32_t>& component, const StepBuilder& start,
                       const std::optional<WalkSample>& sample, bool searchSeeds) {
  return GreedyPlanner(start).plan(component, sample, searchSeeds);
}

PartialPlan greedyPlanFrom(const std::vector<uint32_t>& component, uint32_t seed, const StepBuilder& start,
                           const std::optional<WalkSample>& sample) {
  return GreedyPlanner(start).planFrom(component, seed, sample);
}

}  // namespace gsparql::engine
