#include "engine/placement/placing_executor.h"

#include <cstdio>
#include <mutex>
#include <string>

#include "engine/optimizer/cost_model.h"

namespace gsparql::engine {
namespace {

class PlacingExecutor final : public Executor {
 public:
  PlacingExecutor(Executor& cpu, Executor& gpu, const CostModel& costs) : cpu_(cpu), gpu_(gpu), costs_(costs) {}

  std::string name() const override { return "auto"; }
  WalkEstimator* walkEstimator() override { return gpu_.walkEstimator(); }
  std::shared_ptr<geo::PointLocator> pointLocator(const geo::RingSet& shapes) override {
    return gpu_.pointLocator(shapes);
  }

  IdColumns execute(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store, const BgpCall& options,
                    ExecutionProfile& profile) override {
    const Placement placement = place(plan, bgp, store);
    IdColumns rows = placement.executor.execute(plan, bgp, store, options, profile);
    explain(placement, profile);
    return rows;
  }

  std::unique_ptr<RowCursor> open(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                                  const BgpCall& options, ExecutionProfile& profile) override {
    const Placement placement = place(plan, bgp, store);
    explain(placement, profile);
    return placement.executor.open(plan, bgp, store, options, profile);
  }

  uint64_t count(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store, const BgpCall& options,
                 ExecutionProfile& profile) override {
    const Placement placement = place(plan, bgp, store, Work::Count);
    const uint64_t rows = placement.executor.count(plan, bgp, store, options, profile);
    explain(placement, profile);
    return rows;
  }

  uint64_t countDistinct(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                         const BgpCall& options, ExecutionProfile& profile, uint32_t column) override {
    const Placement placement = place(plan, bgp, store);
    const uint64_t distinct = placement.executor.countDistinct(plan, bgp, store, options, profile, column);
    explain(placement, profile);
    return distinct;
  }

  VertexCounts countByVertex(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                             const BgpCall& options, ExecutionProfile& profile, uint32_t column) override {
    const Placement placement = place(plan, bgp, store);
    VertexCounts counts = placement.executor.countByVertex(plan, bgp, store, options, profile, column);
    explain(placement, profile);
    return counts;
  }

 private:
  struct Placement {
    Executor& executor;
    double cpuCost, gpuCost;  // microseconds, estimated
    uint64_t gpuCopies;       // bytes the GPU would copy first (0: none, or not asked)
    double passedUp;          // savings passed up before, which pay for the copies (microseconds; 0: none)
  };

  // A count makes no rows of the steps it multiplies (countCost). The
  // copies are paid once the savings passed up reach their cost (the
  // header's rent or buy). Where the GPU's run alone costs more, its copies
  // are not asked for: most BGPs of a workload of light queries are such,
  // and the question walks the plan's adjacency.
  enum class Work { Rows, Count };
  Placement place(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store, Work work = Work::Rows) {
    const auto run = [&](const ExecutorCosts& costs) {
      return work == Work::Count ? countCost(costs, plan) : planCost(costs, plan);
    };
    const auto copying = [&](const ExecutorCosts& costs, uint64_t bytes) {
      return costs.perCopiedMegabyte * static_cast<double>(bytes) / 1e6;
    };
    const double cpu = run(costs_.cpu) + copying(costs_.cpu, cpu_.bytesToCopy(plan, bgp, store));
    const double gpuRun = run(costs_.gpu);
    if (gpuRun >= cpu) return {cpu_, cpu, gpuRun, 0, 0};
    const uint64_t gpuCopies = gpu_.bytesToCopy(plan, bgp, store);
    const double gpuCopy = copying(costs_.gpu, gpuCopies);
    if (gpuRun + gpuCopy < cpu) return {gpu_, cpu, gpuRun + gpuCopy, gpuCopies, 0};
    std::lock_guard lock(passedUpMutex_);
    passedUp_ += cpu - gpuRun;
    if (passedUp_ < gpuCopy) return {cpu_, cpu, gpuRun + gpuCopy, gpuCopies, 0};
    const double paying = passedUp_;
    passedUp_ = 0;
    return {gpu_, cpu, gpuRun + gpuCopy, gpuCopies, paying};
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
    if (placement.passedUp > 0) {
      char paid[112];
      std::snprintf(paid, sizeof paid, ", paid by %.3g ms the GPU would have saved on BGPs run on the CPU for their copies",
                    placement.passedUp / 1000);
      copies += paid;
    }
    const std::string placed =
        "placed on the " + placement.executor.name() + " executor" + costs + copies + " (cost model: " + costs_.measuredOn + ")";
    profile.note = profile.note.empty() ? placed : placed + "; " + profile.note;
  }

  Executor& cpu_;
  Executor& gpu_;
  CostModel costs_;
  std::mutex passedUpMutex_;  // queries place their BGPs concurrently
  double passedUp_ = 0;       // microseconds the GPU would have saved on BGPs run on the CPU for their copies
};

}  // namespace

std::unique_ptr<Executor> makePlacingExecutor(Executor& cpu, Executor& gpu, const CostModel& costs) {
  return std::make_unique<PlacingExecutor>(cpu, gpu, costs);
}

}  // namespace gsparql::engine
