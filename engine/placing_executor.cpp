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
    const Placement placement = place(plan, bgp, store);
    IdTable rows = placement.executor.execute(plan, bgp, store, options, profile);
    explain(placement, profile);
    return rows;
  }

  std::unique_ptr<RowCursor> open(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                                  const ExecutionOptions& options, ExecutionProfile& profile) override {
    const Placement placement = place(plan, bgp, store);
    explain(placement, profile);
    return placement.executor.open(plan, bgp, store, options, profile);
  }

  uint64_t count(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store, const ExecutionOptions& options,
                 ExecutionProfile& profile) override {
    const Placement placement = place(plan, bgp, store, Work::Count);
    const uint64_t rows = placement.executor.count(plan, bgp, store, options, profile);
    explain(placement, profile);
    return rows;
  }

  uint64_t countDistinct(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                         const ExecutionOptions& options, ExecutionProfile& profile, uint32_t column) override {
    const Placement placement = place(plan, bgp, store);
    const uint64_t distinct = placement.executor.countDistinct(plan, bgp, store, options, profile, column);
    explain(placement, profile);
    return distinct;
  }

 private:
  struct Placement {
    Executor& executor;
    double cpuCost, gpuCost;  // microseconds, estimated
    uint64_t gpuCopies;       // bytes the GPU would copy first
  };

  // A count makes no rows of the steps it multiplies (countCost). What an
  // executor would copy to its device first is priced too: on a GPU that
  // does not hold the adjacency yet (a one-shot query), a light BGP costs
  // more to copy than the CPU takes to run it.
  enum class Work { Rows, Count };
  Placement place(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store, Work work = Work::Rows) const {
    const auto cost = [&](const ExecutorCosts& costs, uint64_t copies) {
      return (work == Work::Count ? countCost(costs, plan) : planCost(costs, plan)) +
             costs.perCopiedMegabyte * static_cast<double>(copies) / 1e6;
    };
    const uint64_t gpuCopies = gpu_.bytesToCopy(plan, bgp, store);
    const double cpu = cost(costs_.cpu, cpu_.bytesToCopy(plan, bgp, store)), gpu = cost(costs_.gpu, gpuCopies);
    return {gpu < cpu ? gpu_ : cpu_, cpu, gpu, gpuCopies};
  }

  // Puts the placement before what the chosen executor noted (a cursor's
  // executor may note more as it runs).
  void explain(const Placement& placement, ExecutionProfile& profile) const {
    char costs[128];
    std::snprintf(costs, sizeof costs, ": estimated %.3g ms on the CPU, %.3g ms on the GPU", placement.cpuCost / 1000,
                  placement.gpuCost / 1000);
    std::string copies;
    if (placement.gpuCopies > 0) {
      char megabytes[64];
      std::snprintf(megabytes, sizeof megabytes, ", %.3g MB to copy to it first", placement.gpuCopies / 1e6);
      copies = megabytes;
    }
    const std::string placed =
        "placed on the " + placement.executor.name() + " executor" + costs + copies + " (cost model: " + costs_.measuredOn + ")";
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
