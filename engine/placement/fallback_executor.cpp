#include "engine/placement/fallback_executor.h"

#include <functional>
#include <string>
#include <type_traits>

#include "engine/optimizer/walk_estimator.h"

namespace gsparql::engine {
namespace {

enum class Work { Rows, Count };

// The note of a call the GPU declined, put before what the CPU executor
// noted running it. A count the GPU refused before any work was "counted"
// on the CPU, any call its device ran out of memory for "ran" there: the
// words EXPLAIN has always used.
void explainDeclined(const ExecutorDeclined& declined, Work work, ExecutionProfile& profile) {
  const std::string why = std::string(work == Work::Count && !declined.ranOutOfMemory() ? "counted" : "ran") +
                          " on the CPU executor: " + declined.what();
  profile.note = profile.note.empty() ? why : why + "; " + profile.note;
}

// The GPU's cursor; where it declines (at its first batch, before any
// row), execute() of the CPU executor, handed out in batches.
class FallbackCursor final : public RowCursor {
 public:
  FallbackCursor(std::unique_ptr<RowCursor> gpu, std::function<IdColumns()> onCpu, ExecutionProfile& profile)
      : cursor_(std::move(gpu)), onCpu_(std::move(onCpu)), profile_(profile) {}

  std::optional<IdColumns> next() override {
    try {
      return cursor_->next();
    } catch (const ExecutorDeclined& declined) {
      cursor_ = wholeTableCursor(std::move(onCpu_));  // the GPU's cursor, and its lease, go first
      profile_ = ExecutionProfile{};
      std::optional<IdColumns> batch = cursor_->next();
      explainDeclined(declined, Work::Rows, profile_);
      return batch;
    }
  }

 private:
  std::unique_ptr<RowCursor> cursor_;
  std::function<IdColumns()> onCpu_;
  ExecutionProfile& profile_;
};

// The GPU's walks, or the CPU's where the GPU declines.
class FallbackWalks final : public WalkEstimator {
 public:
  explicit FallbackWalks(WalkEstimator& gpu) : gpu_(gpu) {}
  std::string name() const override { return gpu_.name(); }
  uint32_t defaultWalks() const override { return gpu_.defaultWalks(); }
  std::vector<std::vector<StepEstimate>> walkBatch(std::span<const ComponentPlan> plans, const BoundBgp& bgp,
                                                   const GraphStore& store, const WalkOptions& options) override {
    try {
      return gpu_.walkBatch(plans, bgp, store, options);
    } catch (const ExecutorDeclined&) {
      return makeCpuWalkEstimator()->walkBatch(plans, bgp, store, options);
    }
  }

 private:
  WalkEstimator& gpu_;
};

class FallbackExecutor final : public Executor {
 public:
  FallbackExecutor(std::unique_ptr<Executor> gpu, Executor& cpu) : gpu_(std::move(gpu)), cpu_(cpu) {
    if (WalkEstimator* walks = gpu_->walkEstimator()) walks_ = std::make_unique<FallbackWalks>(*walks);
  }

  std::string name() const override { return gpu_->name(); }
  WalkEstimator* walkEstimator() override { return walks_.get(); }
  uint64_t bytesToCopy(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store) override {
    return gpu_->bytesToCopy(plan, bgp, store);
  }
  void preload(const GraphStore& store) override { gpu_->preload(store); }
  std::shared_ptr<geo::PointLocator> pointLocator(const geo::RingSet& shapes) override {
    return gpu_->pointLocator(shapes);
  }

  IdColumns execute(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store, const BgpCall& options,
                    ExecutionProfile& profile) override {
    return orOnCpu(profile, Work::Rows, [&](Executor& e) { return e.execute(plan, bgp, store, options, profile); });
  }

  std::unique_ptr<RowCursor> open(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                                  const BgpCall& options, ExecutionProfile& profile) override {
    Executor& cpu = cpu_;
    return std::make_unique<FallbackCursor>(
        gpu_->open(plan, bgp, store, options, profile),
        [&cpu, &plan, &bgp, &store, &options, &profile] { return cpu.execute(plan, bgp, store, options, profile); },
        profile);
  }

 protected:
  // Counts (Executor::count, countDistinct, countByVertex) go a component at a time, each
  // falling back alone, as the GPU's counting of components did.
  uint64_t countComponent(const BgpPlan& plan, uint32_t component, const BoundBgp& bgp, const GraphStore& store,
                          const BgpCall& options, ExecutionProfile& profile) override {
    return countAlone(plan, component, profile, [&](Executor& e, const BgpPlan& alone, ExecutionProfile& part) {
      return e.count(alone, bgp, store, options, part);
    });
  }

  uint64_t countDistinctInComponent(const BgpPlan& plan, uint32_t component, const BoundBgp& bgp,
                                    const GraphStore& store, const BgpCall& options,
                                    ExecutionProfile& profile, uint32_t column) override {
    return countAlone(plan, component, profile, [&](Executor& e, const BgpPlan& alone, ExecutionProfile& part) {
      return e.countDistinct(alone, bgp, store, options, part, column);
    });
  }

  VertexCounts countByVertexInComponent(const BgpPlan& plan, uint32_t component, const BoundBgp& bgp,
                                        const GraphStore& store, const BgpCall& options,
                                        ExecutionProfile& profile, uint32_t column) override {
    return countAlone(plan, component, profile, [&](Executor& e, const BgpPlan& alone, ExecutionProfile& part) {
      return e.countByVertex(alone, bgp, store, options, part, column);
    });
  }

 private:
  // `call` on the GPU, or where it declines, on the CPU from a fresh
  // profile (the GPU's partial one is not the CPU's), with the reason noted.
  template <typename Call>
  std::invoke_result_t<Call&, Executor&> orOnCpu(ExecutionProfile& profile, Work work, Call&& call) {
    try {
      return call(*gpu_);
    } catch (const ExecutorDeclined& declined) {
      profile = ExecutionProfile{};
      auto result = call(cpu_);
      explainDeclined(declined, work, profile);
      return result;
    }
  }

  // Component `c` of `plan` counted by `count` as a plan of its own, its
  // profile added as c's.
  template <typename Count>
  std::invoke_result_t<Count&, Executor&, const BgpPlan&, ExecutionProfile&> countAlone(const BgpPlan& plan, uint32_t c,
                                                                                        ExecutionProfile& profile,
                                                                                        Count&& count) {
    const BgpPlan alone{{plan.components[c]}};
    ExecutionProfile part;
    auto n = orOnCpu(part, Work::Count, [&](Executor& e) { return count(e, alone, part); });
    addComponentProfile(profile, c, part);
    return n;
  }

  std::unique_ptr<Executor> gpu_;
  Executor& cpu_;
  std::unique_ptr<WalkEstimator> walks_;  // over gpu_'s
};

}  // namespace

std::unique_ptr<Executor> makeFallbackExecutor(std::unique_ptr<Executor> gpu, Executor& cpu) {
  return std::make_unique<FallbackExecutor>(std::move(gpu), cpu);
}

}  // namespace gsparql::engine
