// The optimizer's row estimates against the exact rows of every prefix of
// every plan (issue 10's estimation-quality benchmark). Each BGP (the .rq
// files of --queries, and --random N patterns of 5-10 edges drawn from the
// data, every --anchor-every K-th (2) anchored at a constant) is planned by the statistics
// orderer and run on the CPU executor, whose profile gives each step's exact
// rows; on that same plan every estimator estimates each step:
//   statistics   the per-predicate statistics (the plan's own estimates)
//   walks_128    the planner's sample (128 walks on the CPU, small prefixes
//                counted exactly: wander_join.h)
//   plain_128    128 walks of Wander Join as published
//   walks_cpu    --walks walks on the CPU (default 4,096)
//   walks_gpu    65,536 walks on the GPU (gSWORD), where one is
//   trawl_cpu    walks_cpu, trawled where fewer than 64 walks survive a step (trawl.h):
//                the estimator as the planner gets it
//   trawl_gpu    walks_gpu, trawled on the CPU likewise (gSWORD's CPU-GPU co-processing)
//   alley_cpu    walks_cpu as Alley's: each draws among a step's candidates that pass its checks
//   alley_gpu    walks_gpu likewise
// Where walks die out, the planner's rule applies: the step gets half a walk's
// share (or its geometric mean with the characteristic sets' rows where
// they price the step: rowsAfter), later steps the statistics' ratios. q-error: max(e/a, a/e), both at
// least 1. Prints one CSV line per step, then percentiles per set and estimator.
// A BGP whose exact run takes longer than --timeout (10 s) or more than
// 4 GiB of intermediate rows is left out.
//   estimate-quality --db DIR [--queries FOLDER] [--random N] [--seed S] [--walks N] [--timeout SECONDS]
//                    [--anchor-every K]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "benchmarks/optimizer/bgp_corpus.h"
#include "cli/query_options.h"
#include "engine/bgp/executor.h"
#include "engine/cpu/cpu_executor.h"
#include "engine/gpu/gpu_executor.h"
#include "engine/optimizer/join_orderer.h"
#include "engine/optimizer/optimizer.h"
#include "engine/optimizer/step_builder.h"
#include "engine/optimizer/walk_estimator.h"
#include "engine/optimizer/wander_join.h"
#include "engine/physical/bgp_leaf.h"
#include "engine/placement/fallback_executor.h"
#include "engine/query/query_runner.h"
#include "gsparql/error.h"
#include "parser/parse.h"
#include "storage/graph_store.h"

using namespace gsparql;

namespace {

struct Options {
  std::string db;
  uint64_t seed = 1;
  uint32_t walks = 4096;
  double timeoutSeconds = 10;
};

Options parseOptions(const cli::Arguments& args) {
  return {args.required("--db"), static_cast<uint64_t>(benchmarks::numberOption(args, "--seed", 1)),
          static_cast<uint32_t>(benchmarks::numberOption(args, "--walks", 4096)),
          benchmarks::numberOption(args, "--timeout", 10)};
}

constexpr uint32_t kPlannerWalks = engine::kPlanningWalks;

// Per step of `plan`, whether the characteristic sets price it (StepBuilder::starKnows),
// the steps built again in the plan's order.
std::vector<bool> starKnown(const engine::ComponentPlan& plan, const engine::BoundBgp& bgp, const GraphStore& store) {
  engine::StepBuilder builder(bgp, store.catalog());
  std::vector<bool> known;
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    const uint32_t v = plan.steps[i].vertex;
    known.push_back(builder.starKnows(i == 0 ? builder.seedStep(v) : builder.extendStep(v)));
  }
  return known;
}

// Walk estimates for every step of `plan`, completed by the planner's rule.
std::vector<double> completed(const engine::ComponentPlan& plan, const std::vector<engine::StepEstimate>& walks,
                              uint32_t walkCount, const std::vector<bool>& starKnows) {
  std::vector<double> rows;
  double before = 1;
  uint64_t survivorsBefore = walkCount;
  bool sampled = true;
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    const double statisticsBefore = i == 0 ? 1 : plan.steps[i - 1].estimatedRows;
    const double byStatistics = before * plan.steps[i].estimatedRows / std::max(statisticsBefore, 1e-300);
    double r = byStatistics;
    if (sampled && i < walks.size()) {
      r = engine::rowsAfter(walks[i], before, survivorsBefore,
                            starKnows[i] ? std::optional(byStatistics) : std::nullopt);
      survivorsBefore = walks[i].survivors;
      sampled = survivorsBefore > 0;
    } else {
      sampled = false;
    }
    rows.push_back(r);
    before = r;
  }
  return rows;
}

double qError(double estimate, double exact) {
  const double e = std::max(estimate, 1.0), a = std::max(exact, 1.0);
  return std::max(e / a, a / e);
}

double percentile(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  return values[std::min(values.size() - 1, static_cast<size_t>(p * static_cast<double>(values.size())))];
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::set<std::string> valued = benchmarks::corpusOptions();
    valued.insert({"--db", "--walks", "--timeout"});
    const cli::Arguments args(std::vector<std::string>(argv + 1, argv + argc), {valued, {}});
    const Options o = parseOptions(args);
    GraphStore store(o.db);
    auto cpu = engine::makeCpuExecutor();
    auto cpuWalks = engine::makeCpuWalkEstimator();
    // The GPU's walks, or the CPU's where it declines (as --backend gpu plans).
    std::unique_ptr<engine::Executor> gpu =
        engine::gpuAvailable() ? engine::makeFallbackExecutor(engine::makeGpuExecutor(), *cpu) : nullptr;
    engine::WalkEstimator* gpuWalks = gpu ? gpu->walkEstimator() : nullptr;
    const std::vector<std::string> estimators{"statistics", "walks_128", "walks_cpu", "walks_gpu", "plain_128",
                                              "trawl_cpu",  "trawl_gpu", "alley_cpu", "alley_gpu"};
    std::map<std::pair<std::string, std::string>, std::vector<double>> qErrors;
    int skipped = 0, ran = 0;
    const std::vector<benchmarks::CorpusBgp> bgps = benchmarks::bgpCorpus(args, store);
    std::printf("set,bgp,component,step,exact,statistics,walks_128,walks_cpu,walks_gpu,plain_128,trawl_cpu,trawl_gpu,alley_cpu,alley_gpu\n");
    for (const benchmarks::CorpusBgp& bgp : bgps) {
      auto orderer = engine::makeStatisticsOrderer();
      engine::QueryRequest execution;
      engine::QueryLimits& limits = execution.run.limits;
      limits.deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(static_cast<int64_t>(o.timeoutSeconds * 1000));
      limits.timeoutSeconds = o.timeoutSeconds;
      limits.memoryBudgetBytes = uint64_t{4} << 30;
      std::optional<engine::QueryOutcome> outcome;
      try {
        outcome = engine::runQuery(sparql::parseQuery(bgp.text), store, *cpu, *orderer, execution);
      } catch (const QueryError& e) {
        std::fprintf(stderr, "%s: left out (%s)\n", bgp.name.c_str(), e.what());
        ++skipped;
        continue;
      }
      const engine::BgpLeaf* leaf = engine::firstBgpLeaf(*outcome->plan);
      if (leaf == nullptr || leaf->bgp().hasAbsentConstant) continue;
      ++ran;
      const auto& profiled = leaf->executionProfile().steps;
      size_t next = 0;
      for (uint32_t c = 0; c < leaf->plan().components.size(); ++c) {
        const engine::ComponentPlan& plan = leaf->plan().components[c];
        std::vector<std::vector<double>> estimates(estimators.size());
        for (const auto& step : plan.steps) estimates[0].push_back(step.estimatedRows);
        const std::vector<bool> stars = starKnown(plan, leaf->bgp(), store);
        const auto walksOf = [&](engine::WalkEstimator& estimator, uint32_t walks, bool trawl = false,
                                 bool alley = false) {
          const engine::WalkOptions options{.walks = walks, .seed = o.seed, .trawl = trawl, .alley = alley};
          return completed(plan, estimator.estimate(plan, leaf->bgp(), store, options), walks, stars);
        };
        estimates[1] = completed(plan,
                                 engine::wanderJoin(plan, leaf->bgp(), store, {.walks = kPlannerWalks, .seed = o.seed},
                                                    engine::WalkMode::Planner),
                                 kPlannerWalks, stars);
        estimates[4] = walksOf(*cpuWalks, kPlannerWalks);
        estimates[2] = walksOf(*cpuWalks, o.walks);
        estimates[5] = walksOf(*cpuWalks, o.walks, true);
        if (gpuWalks) estimates[3] = walksOf(*gpuWalks, gpuWalks->defaultWalks());
        if (gpuWalks) estimates[6] = walksOf(*gpuWalks, gpuWalks->defaultWalks(), true);
        estimates[7] = walksOf(*cpuWalks, o.walks, false, true);
        if (gpuWalks) estimates[8] = walksOf(*gpuWalks, gpuWalks->defaultWalks(), false, true);
        for (size_t s = 0; next < profiled.size() && profiled[next].component == c; ++s, ++next) {
          const double exact = static_cast<double>(profiled[next].actualRows);
          std::printf("%s,%s,%u,%zu,%.0f", bgp.set.c_str(), bgp.name.c_str(), c, s, exact);
          for (size_t k = 0; k < estimators.size(); ++k) {
            if (estimates[k].empty()) {
              std::printf(",-");
              continue;
            }
            std::printf(",%.4g", estimates[k][s]);
            qErrors[{bgp.set, estimators[k]}].push_back(qError(estimates[k][s], exact));
          }
          std::printf("\n");
        }
      }
    }
    std::printf("\n# %d BGPs measured, %d left out (timeout, memory or error)\n", ran, skipped);
    std::printf("set,estimator,steps,median_q_error,p90_q_error,p99_q_error,max_q_error\n");
    for (const auto& [key, values] : qErrors) {
      std::printf("%s,%s,%zu,%.2f,%.2f,%.2f,%.3g\n", key.first.c_str(), key.second.c_str(), values.size(),
                  percentile(values, 0.5), percentile(values, 0.9), percentile(values, 0.99),
                  *std::max_element(values.begin(), values.end()));
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "estimate-quality: %s\n", e.what());
    return 1;
  }
}
