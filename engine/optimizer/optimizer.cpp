#include "engine/optimizer/optimizer.h"

#include <cstdio>
#include <stdexcept>
#include <string>

#include "engine/optimizer/walk_estimator.h"

namespace gsparql::engine {

namespace {

std::unique_ptr<JoinOrderer> makeOrderer(const GraphStore& store, const OptimizerSetup& setup) {
  const WalkOptions walks{.walks = kPlanningWalks, .seed = kPlanningSeed};
  switch (setup.search) {
    case Optimizer::Statistics: return makeStatisticsOrderer();
    case Optimizer::Walks: return makeSamplingOrderer(store, walks, setup.executors);
    case Optimizer::Thorough:
      if (setup.executors.empty()) throw std::invalid_argument("the thorough search needs the costs of an executor");
      return makeCostOrderer(store, walks, setup.executors.back(), setup.refiner);
  }
  throw std::invalid_argument("unknown optimizer");
}

// What makes two setups' plans differ, as the start of their plans' keys.
std::string setupKey(const OptimizerSetup& setup) {
  std::string key = std::to_string(static_cast<int>(setup.search));
  for (const ExecutorCosts& c : setup.executors) {
    char costs[160];
    std::snprintf(costs, sizeof costs, "|%a,%a,%a,%a,%a", c.perBgp, c.perStep, c.perCandidate, c.perRow,
                  c.perCopiedMegabyte);
    key += costs;
  }
  // By kind, not address: the snapshots that share kept plans (plan_cache.h) have refiners of their own.
  return key + "|" + (setup.refiner ? setup.refiner->name() : std::string()) + "|";
}

}  // namespace

std::unique_ptr<JoinOrderer> makeOptimizer(const GraphStore& store, const OptimizerSetup& setup) {
  std::unique_ptr<JoinOrderer> orderer = makeOrderer(store, setup);
  if (setup.operatorCosts) orderer->setOperatorCosts(*setup.operatorCosts);
  if (setup.plans) orderer = withPlanCache(std::move(orderer), *setup.plans, setupKey(setup));
  return orderer;
}

}  // namespace gsparql::engine
