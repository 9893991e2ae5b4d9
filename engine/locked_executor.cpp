#include "engine/locked_executor.h"

#include "engine/optimizer/walk_estimator.h"

namespace gsparql::engine {
namespace {

using Lock = std::unique_lock<std::recursive_mutex>;

class LockedCursor : public RowCursor {
 public:
  LockedCursor(Lock lock, std::unique_ptr<RowCursor> inner) : lock_(std::move(lock)), inner_(std::move(inner)) {}
  std::optional<IdTable> next() override { return inner_->next(); }

 private:
  Lock lock_;  // released after inner_ is gone (members go in reverse order)
  std::unique_ptr<RowCursor> inner_;
};

class LockedWalks : public WalkEstimator {
 public:
  LockedWalks(WalkEstimator& inner, std::recursive_mutex& mutex) : inner_(inner), mutex_(mutex) {}
  std::string name() const override { return inner_.name(); }
  uint32_t defaultWalks() const override { return inner_.defaultWalks(); }
  std::vector<StepEstimate> estimate(const ComponentPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                                     const WalkOptions& options) override {
    Lock lock(mutex_);
    return inner_.estimate(plan, bgp, store, options);
  }

 private:
  WalkEstimator& inner_;
  std::recursive_mutex& mutex_;
};

class LockedExecutor : public Executor {
 public:
  LockedExecutor(std::unique_ptr<Executor> inner, std::recursive_mutex& mutex) : inner_(std::move(inner)), mutex_(mutex) {
    if (WalkEstimator* walks = inner_->walkEstimator()) walks_ = std::make_unique<LockedWalks>(*walks, mutex_);
  }

  std::string name() const override { return inner_->name(); }
  IdTable execute(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store, const ExecutionOptions& options,
                  ExecutionProfile& profile) override {
    Lock lock(mutex_);
    return inner_->execute(plan, bgp, store, options, profile);
  }
  std::unique_ptr<RowCursor> open(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                                  const ExecutionOptions& options, ExecutionProfile& profile) override {
    Lock lock(mutex_);
    auto cursor = inner_->open(plan, bgp, store, options, profile);
    return std::make_unique<LockedCursor>(std::move(lock), std::move(cursor));
  }
  uint64_t count(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store, const ExecutionOptions& options,
                 ExecutionProfile& profile) override {
    Lock lock(mutex_);
    return inner_->count(plan, bgp, store, options, profile);
  }
  WalkEstimator* walkEstimator() override { return walks_.get(); }

 private:
  std::unique_ptr<Executor> inner_;
  std::recursive_mutex& mutex_;
  std::unique_ptr<WalkEstimator> walks_;
};

}  // namespace

std::unique_ptr<Executor> makeLockedExecutor(std::unique_ptr<Executor> inner, std::recursive_mutex& mutex) {
  return std::make_unique<LockedExecutor>(std::move(inner), mutex);
}

}  // namespace gsparql::engine
