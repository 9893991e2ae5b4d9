// Sampling throughput (issue 10): random walks per second of the optimizer's
// estimators, on the plan the sampling orderer chooses for each BGP of the
// corpus (bgp_corpus.h). For each estimator and --walks count (the GPU's
// default 65,536, 2^20 and 2^24; the CPU's 4,096 and 65,536), the fastest
// of --repeat (3) estimates after a warm-up, over the steps the walks can
// take; walks per second = walks / seconds (each walk goes through every
// step until it dies, as gSWORD counts them). Prints one CSV line per BGP
// and count, then per estimator and count the median and the total rate.
// --alley: the walks are Alley's (WalkOptions::alley), not Wander Join's;
// --gpu-only: the GPU's estimator alone; --batch K: each estimate a batch of
// K copies of the plan, each with its walks (as the planner sends its
// candidates; the walks counted are K times as many); --spread: also every
// GPU of the machine as one estimator, each batch dealt out over them
// (engine/placement/device_spread_executor.h), named gpu-xN.
//   walk-throughput --db DIR [--queries FOLDER] [--random N] [--seed S] [--anchor-every K] [--repeat N] [--alley]
//                   [--gpu-only] [--batch K] [--spread]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <optional>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "benchmarks/optimizer/bgp_corpus.h"
#include "engine/bgp/bound_bgp.h"
#include "engine/cpu/cpu_executor.h"
#include "engine/gpu/gpu_executor.h"
#include "engine/optimizer/optimizer.h"
#include "engine/optimizer/walk_estimator.h"
#include "engine/placement/device_spread_executor.h"
#include "engine/placement/fallback_executor.h"
#include "gsparql/cost_model.h"
#include "parser/parse.h"
#include "parser/query_graph.h"
#include "storage/graph_store.h"
#include "storage/named_graphs.h"

using namespace gsparql;

namespace {

struct Rate {
  double walks = 0, seconds = 0;  // summed over the BGPs
  std::vector<double> perBgp;      // walks per second
};

// The fastest of `repeat` estimates of `batch` after a warm-up, in seconds; and the steps the walks took.
std::pair<double, size_t> fastest(engine::WalkEstimator& estimator, std::span<const engine::ComponentPlan> batch,
                                  const engine::BoundBgp& bgp, const GraphStore& store, uint32_t walks,
                                  int repeat, bool alley) {
  double best = 1e300;
  size_t steps = 0;
  for (int run = 0; run <= repeat; ++run) {
    const auto start = std::chrono::steady_clock::now();
    const engine::WalkOptions options{.walks = walks, .seed = static_cast<uint64_t>(run + 1), .alley = alley};
    steps = estimator.estimateBatch(batch, bgp, store, options).front().size();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (run > 0) best = std::min(best, seconds);
  }
  return {best, steps};
}

// The first BGP of a query, bound to the store's default graph.
std::optional<engine::BoundBgp> bgpOf(const std::string& text, const GraphStore& store) {
  const sparql::Query query = sparql::parseQuery(text);
  const auto bgps = sparql::basicGraphPatterns(*query.pattern);
  if (bgps.empty() || bgps[0]->queryGraph == nullptr) return std::nullopt;
  engine::BoundBgp bgp = engine::bindBgp(*bgps[0]->queryGraph, store, NamedGraphs::kDefaultGraph);
  if (bgp.hasAbsentConstant) return std::nullopt;
  return bgp;
}

// Every GPU of the machine as one executor, each batch of walks dealt out over them.
std::unique_ptr<engine::Executor> spreadGpus() {
  std::vector<engine::SpreadDevice> devices;
  for (int d = 0; d < engine::gpuCount(); ++d) {
    engine::GpuOptions options;
    options.device = d;
    devices.push_back({"GPU " + std::to_string(d), engine::makeGpuExecutor(options)});
  }
  engine::SpreadOptions options;
  options.splitWalks = 1;
  return engine::makeDeviceSpreadExecutor(std::move(devices), options);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::set<std::string> valued = benchmarks::corpusOptions();
    valued.insert({"--db", "--repeat", "--batch"});
    const cli::Arguments args(std::vector<std::string>(argv + 1, argv + argc),
                              {valued, {"--alley", "--gpu-only", "--spread"}});
    const bool alley = args.flag("--alley");
    const int repeat = static_cast<int>(benchmarks::numberOption(args, "--repeat", 3));
    const auto batchSize = static_cast<size_t>(std::max(1.0, benchmarks::numberOption(args, "--batch", 1)));
    GraphStore store(args.required("--db"));
    engine::OptimizerSetup setup;
    setup.executors = {cachedOrDefaultCostModel().cpu};
    const auto orderer = engine::makeOptimizer(store, setup);
    const auto cpuWalks = engine::makeCpuWalkEstimator();
    // The GPU's walks, or the CPU's where it declines (as --backend gpu plans).
    const auto cpu = engine::makeCpuExecutor();
    const auto gpu = engine::gpuAvailable() ? engine::makeFallbackExecutor(engine::makeGpuExecutor(), *cpu) : nullptr;
    std::vector<std::pair<engine::WalkEstimator*, std::vector<uint32_t>>> estimators;
    if (!args.flag("--gpu-only")) estimators.push_back({cpuWalks.get(), {4096, 65536}});
    if (gpu) estimators.push_back({gpu->walkEstimator(), {65536, 1u << 20, 1u << 24}});
    const auto everyGpu = args.flag("--spread") && gpu ? engine::makeFallbackExecutor(spreadGpus(), *cpu) : nullptr;
    if (everyGpu) estimators.push_back({everyGpu->walkEstimator(), {65536, 1u << 20, 1u << 24}});
    std::map<std::pair<std::string, uint32_t>, Rate> rates;
    std::printf("bgp,estimator,walks,steps,ms,walks_per_second\n");
    for (const auto& corpus : benchmarks::bgpCorpus(args, store)) {
      const auto bgp = bgpOf(corpus.text, store);
      if (!bgp) continue;
      const engine::BgpPlan plan = orderer->plan(*bgp, store.catalog());
      for (const auto& component : plan.components) {
        const std::vector<engine::ComponentPlan> batch(batchSize, component);
        for (const auto& [estimator, counts] : estimators) {
          const std::string name = estimator == estimators.back().first && everyGpu
                                       ? "gpu-x" + std::to_string(engine::gpuCount())
                                       : estimator->name();
          for (uint32_t walks : counts) {
            const auto [seconds, steps] = fastest(*estimator, batch, *bgp, store, walks, repeat, alley);
            if (steps == 0) continue;
            const double walked = static_cast<double>(walks) * batchSize;
            Rate& rate = rates[{name, walks}];
            rate.walks += walked;
            rate.seconds += seconds;
            rate.perBgp.push_back(walked / seconds);
            std::printf("%s,%s,%u,%zu,%.4f,%.4g\n", corpus.name.c_str(), name.c_str(), walks, steps, seconds * 1000,
                        walked / seconds);
          }
        }
      }
      std::fflush(stdout);
    }
    std::printf("\nestimator,walks,estimates,median_walks_per_second,total_walks_per_second\n");
    for (auto& [key, rate] : rates) {
      std::sort(rate.perBgp.begin(), rate.perBgp.end());
      std::printf("%s,%u,%zu,%.4g,%.4g\n", key.first.c_str(), key.second, rate.perBgp.size(),
                  rate.perBgp[rate.perBgp.size() / 2], rate.walks / rate.seconds);
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "walk-throughput: %s\n", e.what());
    return 1;
  }
}
