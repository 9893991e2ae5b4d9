// Plan quality (issue 10): the time of the join order the optimizer chose
// against the best of every join order, for each BGP of one component with
// at most --max-vertices (6) vertices (constants count). Every order that
// binds each next vertex through an edge to those bound (a vertex without
// one starts anew) is built as the planner builds its steps (step_builder.h,
// estimated by the planner's 128 walks) and timed on --backend cpu|gpu: the
// fastest of --repeat (3) runs after a warm-up, each run as many executions
// as fill half a millisecond. An order is cut once a run
// takes 3 times the best so far plus 1 ms: it cannot be the best. ratio =
// chosen / best (the chosen order's own time is the faster of its two
// measurements). Prints one CSV line per BGP, then per set the share within
// 1.2x, 1.5x and 2x, the geometric mean and the worst ratio, for all BGPs
// and for those whose best order takes at least 1 ms.
//   plan-quality --db DIR [--queries FOLDER] [--random N] [--seed S] [--anchor-every K] [--backend cpu|gpu]
//                [--optimizer walks|thorough|statistics] [--repeat N] [--max-vertices N] [--timeout SECONDS]
//                [--only NAME] (one BGP, its text written to stderr: to look into a miss)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "benchmarks/optimizer/bgp_corpus.h"
#include "engine/bgp/executor.h"
#include "engine/cpu/cpu_executor.h"
#include "engine/gpu/gpu_executor.h"
#include "cli/query_options.h"
#include "engine/optimizer/join_orderer.h"
#include "engine/optimizer/optimizer.h"
#include "engine/optimizer/prefix_estimate.h"
#include "engine/physical/bgp_leaf.h"
#include "engine/placement/fallback_executor.h"
#include "engine/query/query_runner.h"
#include "gsparql/cost_model.h"
#include "gsparql/error.h"
#include "parser/parse.h"
#include "storage/graph_store.h"

using namespace gsparql;

namespace {

struct Setup {
  int repeat = 3;
  size_t maxVertices = 6;
  double timeoutSeconds = 10;
};

std::unique_ptr<engine::JoinOrderer> ordererOf(const std::string& name, const GraphStore& store, bool gpu,
                                               engine::Executor& executor) {
  const CostModel model = cachedOrDefaultCostModel();
  static const auto cpuWalks = engine::makeCpuWalkEstimator();
  engine::WalkEstimator* refiner = executor.walkEstimator() ? executor.walkEstimator() : cpuWalks.get();
  engine::OptimizerSetup setup;
  setup.search = cli::parseOptimizer(name);
  setup.executors = {gpu ? model.gpu : model.cpu};
  setup.refiner = refiner;
  setup.operatorCosts = model.cpu;
  return engine::makeOptimizer(store, setup);
}

// Times plans of one BGP on one executor.
class PlanTimer {
 public:
  PlanTimer(engine::Executor& executor, const GraphStore& store, const engine::BoundBgp& bgp, int repeat)
      : executor_(executor), store_(store), bgp_(bgp), repeat_(repeat) {}

  // The fastest of the runs after a warm-up, in milliseconds per execution;
  // nullopt once an execution takes longer than `limitMs` or outgrows the
  // memory budget. A run executes the plan as often as fills kRunMs, so
  // that plans of microseconds are timed above the clock's noise.
  std::optional<double> fastest(const engine::BgpPlan& plan, double limitMs) const {
    const auto warmUp = timeRuns(plan, limitMs, 1);
    if (!warmUp) return std::nullopt;
    const int executions = static_cast<int>(std::clamp(std::ceil(kRunMs / std::max(*warmUp, 1e-4)), 1.0, 1000.0));
    double best = INFINITY;
    for (int run = 0; run < repeat_; ++run) {
      const auto ms = timeRuns(plan, limitMs, executions);
      if (!ms) return std::nullopt;
      best = std::min(best, *ms);
    }
    return best;
  }

 private:
  static constexpr double kRunMs = 0.5;

  // Milliseconds per execution over `executions` executions.
  std::optional<double> timeRuns(const engine::BgpPlan& plan, double limitMs, int executions) const {
    engine::BgpCall options;
    options.timeoutSeconds = limitMs / 1000;
    options.memoryBudgetBytes = uint64_t{4} << 30;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < executions; ++i) {
      options.deadline =
          std::chrono::steady_clock::now() + std::chrono::microseconds(static_cast<int64_t>(limitMs * 1000));
      engine::ExecutionProfile profile;
      try {
        executor_.execute(plan, bgp_, store_, options, profile);
      } catch (const QueryError&) {
        return std::nullopt;
      }
    }
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() /
                      executions;
    return ms > limitMs ? std::nullopt : std::optional(ms);
  }

  engine::Executor& executor_;
  const GraphStore& store_;
  const engine::BoundBgp& bgp_;
  int repeat_;
};

bool adjacent(const engine::BoundBgp& bgp, uint32_t v, const std::vector<bool>& bound) {
  return std::any_of(bgp.edges.begin(), bgp.edges.end(), [&](const engine::BoundEdge& e) {
    return (e.from == v && bound[e.to]) || (e.to == v && bound[e.from]);
  });
}

// Calls f(order) for every order of `component`'s vertices in which each
// vertex has an edge to one before it, unless none left has.
template <typename F>
void forEachOrder(const engine::BoundBgp& bgp, const std::vector<uint32_t>& component, F&& f) {
  std::vector<uint32_t> order;
  std::vector<bool> bound(bgp.vertices.size());
  const auto extend = [&](const auto& self) -> void {
    if (order.size() == component.size()) return f(order);
    const bool anyAdjacent = std::any_of(component.begin(), component.end(),
                                         [&](uint32_t v) { return !bound[v] && adjacent(bgp, v, bound); });
    for (uint32_t v : component) {
      if (bound[v] || (anyAdjacent && !adjacent(bgp, v, bound))) continue;
      bound[v] = true;
      order.push_back(v);
      self(self);
      order.pop_back();
      bound[v] = false;
    }
  };
  extend(extend);
}

// The plan that binds the vertices in `order`, built and estimated as the planner does.
engine::BgpPlan planOf(const engine::BoundBgp& bgp, const GraphStore& store, const std::vector<uint32_t>& order) {
  engine::PartialPlan p{engine::StepBuilder(bgp, store.catalog()),
                        engine::PrefixEstimate(engine::WalkSample(bgp, store, {.walks = engine::kPlanningWalks, .seed = engine::kPlanningSeed},
                                                                engine::WalkMode::Planner)),
                        {}};
  for (uint32_t v : order) p.add(p.builder.cheapestDriver(v) ? p.builder.extendStep(v) : p.builder.seedStep(v));
  return {{std::move(p.plan)}};
}

std::vector<uint32_t> orderOf(const engine::BgpPlan& plan) {
  std::vector<uint32_t> order;
  for (const auto& component : plan.components) {
    for (const auto& step : component.steps) order.push_back(step.vertex);
  }
  return order;
}

std::string text(const std::vector<uint32_t>& order) {
  std::string s;
  for (uint32_t v : order) s += (s.empty() ? "" : " ") + std::to_string(v);
  return s;
}

struct Outcome {
  std::string set;
  double ratio = 1, bestMs = 0;
};

// Runs the query to find the BGP and the chosen plan, then times every order.
std::optional<Outcome> measure(const benchmarks::CorpusBgp& corpus, const GraphStore& store,
                               engine::Executor& executor, const engine::JoinOrderer& orderer, const Setup& setup) {
  engine::QueryRequest planning;
  engine::QueryLimits& limits = planning.run.limits;
  limits.timeoutSeconds = setup.timeoutSeconds;
  limits.deadline = std::chrono::steady_clock::now() +
                    std::chrono::milliseconds(static_cast<int64_t>(setup.timeoutSeconds * 1000));
  limits.memoryBudgetBytes = uint64_t{4} << 30;
  std::optional<engine::QueryOutcome> outcome;
  try {
    outcome = engine::runQuery(sparql::parseQuery(corpus.text), store, executor, orderer, planning);
  } catch (const QueryError& e) {
    std::fprintf(stderr, "%s: left out (%s)\n", corpus.name.c_str(), e.what());
    return std::nullopt;
  }
  const engine::BgpLeaf* leaf = engine::firstBgpLeaf(*outcome->plan);
  if (leaf == nullptr || leaf->bgp().hasAbsentConstant || leaf->bgp().components.size() != 1 ||
      leaf->bgp().vertices.size() > setup.maxVertices) {
    return std::nullopt;
  }
  const engine::BoundBgp& bgp = leaf->bgp();
  const PlanTimer timer(executor, store, bgp, setup.repeat);
  const std::vector<uint32_t> chosenOrder = orderOf(leaf->plan());
  const auto chosen = timer.fastest(leaf->plan(), setup.timeoutSeconds * 1000);
  if (!chosen) return std::nullopt;
  double chosenMs = *chosen, bestMs = *chosen;
  std::vector<uint32_t> bestOrder = chosenOrder;
  size_t orders = 0, cut = 0;
  forEachOrder(bgp, bgp.components[0], [&](const std::vector<uint32_t>& order) {
    ++orders;
    const auto ms = timer.fastest(planOf(bgp, store, order), 3 * bestMs + 1);
    if (!ms) return static_cast<void>(++cut);
    if (order == chosenOrder) chosenMs = std::min(chosenMs, *ms);
    if (*ms < bestMs) bestMs = *ms, bestOrder = order;
  });
  bestMs = std::min(bestMs, chosenMs);
  const double ratio = chosenMs / bestMs;
  std::printf("%s,%s,%zu,%zu,%zu,%.4f,%.4f,%.3f,%s,%s\n", corpus.set.c_str(), corpus.name.c_str(),
              bgp.vertices.size(), orders, cut, chosenMs, bestMs, ratio, text(chosenOrder).c_str(),
              text(bestOrder).c_str());
  std::fflush(stdout);
  return Outcome{corpus.set, ratio, bestMs};
}

void printSummary(const std::string& set, const std::string& which, const std::vector<double>& ratios) {
  if (ratios.empty()) return;
  const auto share = [&](double within) {
    return 100.0 * static_cast<double>(std::count_if(ratios.begin(), ratios.end(),
                                                     [&](double r) { return r <= within; })) /
           static_cast<double>(ratios.size());
  };
  double logs = 0;
  for (double r : ratios) logs += std::log(r);
  std::printf("%s,%s,%zu,%.1f,%.1f,%.1f,%.3f,%.2f\n", set.c_str(), which.c_str(), ratios.size(), share(1.2),
              share(1.5), share(2), std::exp(logs / static_cast<double>(ratios.size())),
              *std::max_element(ratios.begin(), ratios.end()));
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::set<std::string> valued = benchmarks::corpusOptions();
    valued.insert({"--db", "--backend", "--optimizer", "--repeat", "--max-vertices", "--timeout", "--only"});
    const cli::Arguments args(std::vector<std::string>(argv + 1, argv + argc), {valued, {}});
    const Setup setup{static_cast<int>(benchmarks::numberOption(args, "--repeat", 3)),
                      static_cast<size_t>(benchmarks::numberOption(args, "--max-vertices", 6)),
                      benchmarks::numberOption(args, "--timeout", 10)};
    const std::string backend = args.value("--backend").value_or("cpu");
    if (backend != "cpu" && backend != "gpu") throw cli::UsageError("--backend is cpu or gpu, not " + backend);
    if (backend == "gpu" && !engine::gpuAvailable()) throw cli::UsageError("--backend gpu: no GPU here");
    GraphStore store(args.required("--db"));
    // On the GPU as --backend gpu: what it declines runs on the CPU executor.
    const auto cpu = engine::makeCpuExecutor();
    const auto executor = backend == "gpu" ? engine::makeFallbackExecutor(engine::makeGpuExecutor(), *cpu)
                                           : engine::makeCpuExecutor();
    const auto orderer = ordererOf(args.value("--optimizer").value_or("sampling"), store, backend == "gpu", *executor);
    std::printf("set,bgp,vertices,orders,orders_cut,chosen_ms,best_ms,ratio,chosen_order,best_order\n");
    std::map<std::string, std::vector<double>> all, heavy;
    const std::optional<std::string> only = args.value("--only");
    bool found = false;
    for (const auto& corpus : benchmarks::bgpCorpus(args, store)) {
      if (only && corpus.name != *only) continue;
      if (only) std::fprintf(stderr, "%s\n", corpus.text.c_str());
      found = true;
      const auto outcome = measure(corpus, store, *executor, *orderer, setup);
      if (!outcome) continue;
      all[outcome->set].push_back(outcome->ratio);
      if (outcome->bestMs >= 1) heavy[outcome->set].push_back(outcome->ratio);
    }
    if (only && !found) throw cli::UsageError("--only " + *only + ": no BGP of that name among --queries and --random");
    std::printf("\nset,which,bgps,within_1.2x_pct,within_1.5x_pct,within_2x_pct,geomean_ratio,max_ratio\n");
    for (const auto& [set, ratios] : all) printSummary(set, "all", ratios);
    for (const auto& [set, ratios] : heavy) printSummary(set, "best_at_least_1ms", ratios);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "plan-quality: %s\n", e.what());
    return 1;
  }
}
