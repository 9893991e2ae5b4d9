#include "engine/placing_executor.h"

#include <cstdio>
#include <string>

#include "engine/optimizer/cost_model.h"

namespace gsparql::engine {
namespace {

class PlacingExecutor final : public Executor {
 public:
  PlacingExecutor(Executor& cpu, Executor& gpu, const CostModel& costs) : cpu_(cpu), gpu_(gpu), costs_(costs) {}

  std::string name() const override { return "auto"; }
  WalkEstimator* walkEstimator() override { return gpu_.walkEstimator(); }

  IdTable execute(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store, const ExecutionOptions& options,
                  ExecutionProfile& profile) override {
    const Placement placement = place(plan);
    IdTable rows = placement.executor.execute(plan, bgp, store, options, profile);
    explain(placement, profile);
    return rows;
  }

  std::unique_ptr<RowCursor> open(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                                  const ExecutionOptions& options, ExecutionProfile& profile) override {
    const Placement placement = place(plan);
    explain(placement, profile);
    return placement.executor.open(plan, bgp, store, options, profile);
  }

  uint64_t count(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store, const ExecutionOptions& options,
                 ExecutionProfile& profile) override {
    const Placement placement = place(plan, Work::Count);
    const uint64_t rows = placement.executor.count(plan, bgp, store, options, profile);
    explain(placement, profile);
    return rows;
  }

  uint64_t countDistinct(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                         const ExecutionOptions& options, ExecutionProfile& profile, uint32_t column) override {
    const Placement placement = place(plan);
    const uint64_t distinct = placement.executor.countDistinct(plan, bgp, store, options, profile, column);
    explain(placement, profile);
    return distinct;
  }

 private:
  struct Placement {
    Executor& executor;
    double cpuCost, gpuCost;  // microseconds, estimated
  };

  // A count makes no rows of the steps it multiplies (countCost).
  enum class Work { Rows, Count };
  Placement place(const BgpPlan& plan, Work work = Work::Rows) const {
    const auto cost = [&](const ExecutorCosts& costs) {
      return work == Work::Count ? countCost(costs, plan) : planCost(costs, plan);
    };
    const double cpu = cost(costs_.cpu), gpu = cost(costs_.gpu);
    return {gpu < cpu ? gpu_ : cpu_, cpu, gpu};
  }

  // Puts the placement before what the chosen executor noted (a cursor's
  // executor may note more as it runs).
  void explain(const Placement& placement, ExecutionProfile& profile) const {
    char costs[96];
    std::snprintf(costs, sizeof costs, ": estimated %.3g ms on the CPU, %.3g ms on the GPU", placement.cpuCost / 1000,
                  placement.gpuCost / 1000);
    const std::string placed =
        "placed on the " + placement.executor.name() + " executor" + costs + " (cost model: " + costs_.measuredOn + ")";
    profile.note = profile.note.empty() ? placed : placed + "; " + profile.note;
  }

  Executor& cpu_;
  Executor& gpu_;
  CostModel costs_;
};

}  // namespace

std::unique_ptr<Executor> makePlacingExecutor(Executor& cpu, Executor& gpu, const CostModel& costs) {
  return std::make_unique<PlacingExecutor>(cpu, gpu, costs);
}

}  // namespace gsparql::engine
