#include "engine/placing_executor.h"

#include <string>

namespace gsparql::engine {
namespace {

class PlacingExecutor final : public Executor {
 public:
  PlacingExecutor(Executor& cpu, Executor& gpu, double gpuFromRows) : cpu_(cpu), gpu_(gpu), gpuFromRows_(gpuFromRows) {}

  std::string name() const override { return "auto"; }

  IdTable execute(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store, const ExecutionOptions& options,
                  ExecutionProfile& profile) override {
    Executor& chosen = place(plan);
    IdTable rows = chosen.execute(plan, bgp, store, options, profile);
    explain(plan, chosen, profile);
    return rows;
  }

  std::unique_ptr<RowCursor> open(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                                  const ExecutionOptions& options, ExecutionProfile& profile) override {
    Executor& chosen = place(plan);
    explain(plan, chosen, profile);
    return chosen.open(plan, bgp, store, options, profile);
  }

  uint64_t count(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store, const ExecutionOptions& options,
                 ExecutionProfile& profile) override {
    Executor& chosen = place(plan);
    const uint64_t rows = chosen.count(plan, bgp, store, options, profile);
    explain(plan, chosen, profile);
    return rows;
  }

 private:
  Executor& place(const BgpPlan& plan) const {
    return estimatedRowsOverSteps(plan) < gpuFromRows_ ? cpu_ : gpu_;
  }

  // Puts the placement before what the chosen executor noted (a cursor's
  // executor may note more as it runs).
  void explain(const BgpPlan& plan, const Executor& chosen, ExecutionProfile& profile) const {
    const std::string placed = "placed on the " + chosen.name() + " executor: about " +
                               std::to_string(static_cast<uint64_t>(estimatedRowsOverSteps(plan))) +
                               " rows over its steps (the GPU from " +
                               std::to_string(static_cast<uint64_t>(gpuFromRows_)) + ")";
    profile.note = profile.note.empty() ? placed : placed + "; " + profile.note;
  }

  Executor& cpu_;
  Executor& gpu_;
  double gpuFromRows_;
};

}  // namespace

double estimatedRowsOverSteps(const BgpPlan& plan) {
  double rows = 0;
  for (const ComponentPlan& component : plan.components) {
    for (const PlanStep& step : component.steps) rows += step.estimatedRows;
  }
  return rows;
}

std::unique_ptr<Executor> makePlacingExecutor(Executor& cpu, Executor& gpu, double gpuFromRows) {
  return std::make_unique<PlacingExecutor>(cpu, gpu, gpuFromRows);
}

}  // namespace gsparql::engine
