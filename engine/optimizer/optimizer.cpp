#include "engine/optimizer/optimizer.h"

#include <stdexcept>

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

}  // namespace

std::unique_ptr<JoinOrderer> makeOptimizer(const GraphStore& store, const OptimizerSetup& setup) {
  std::unique_ptr<JoinOrderer> orderer = makeOrderer(store, setup);
  if (setup.operatorCosts) orderer->setOperatorCosts(*setup.operatorCosts);
  return orderer;
}

}  // namespace gsparql::engine
