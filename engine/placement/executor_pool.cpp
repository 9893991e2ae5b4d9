#include "engine/placement/executor_pool.h"

#include <algorithm>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "engine/optimizer/walk_estimator.h"

namespace gsparql::engine {
namespace {

// The executors and who holds them.
class Leases {
 public:
  explicit Leases(std::vector<std::unique_ptr<Executor>> executors) : executors_(std::move(executors)) {
    for (size_t i = 0; i < executors_.size(); ++i) idle_.push_back(i);
  }
  Executor& any() const { return *executors_.front(); }

  // The executor the calling thread holds, or an idle one: `wanted` once it
  // is idle, else the one the thread used last where idle.
  size_t acquire(std::thread::id thread, std::optional<size_t> wanted = std::nullopt) {
    std::unique_lock lock(mutex_);
    if (auto held = held_.find(thread); held != held_.end()) {
      ++held->second.depth;
      return held->second.executor;
    }
    const auto idle = [&] { return wanted ? std::ranges::find(idle_, *wanted) : idle_.begin(); };
    idleAgain_.wait(lock, [&] { return idle() != idle_.end(); });
    auto pick = idle();
    for (auto it = idle_.begin(); it != idle_.end() && !wanted; ++it) {
      if (lastUser_[*it] == thread) pick = it;
    }
    const size_t executor = *pick;
    held_.try_emplace(thread, Held{executor, 1});  // the inserts may throw: before the executor leaves idle_
    lastUser_[executor] = thread;
    idle_.erase(pick);
    return executor;
  }

  void release(std::thread::id thread) {
    {
      std::lock_guard lock(mutex_);
      auto held = held_.find(thread);
      if (--held->second.depth > 0) return;
      idle_.push_back(held->second.executor);
      held_.erase(held);
    }
    idleAgain_.notify_all();  // one may wait for this executor, another for any
  }

  Executor& operator[](size_t i) const { return *executors_[i]; }
  size_t size() const { return executors_.size(); }

 private:
  struct Held {
    size_t executor;
    int depth;  // nested leases of the same thread
  };
  const std::vector<std::unique_ptr<Executor>> executors_;
  std::mutex mutex_;
  std::condition_variable idleAgain_;
  std::vector<size_t> idle_;
  std::map<std::thread::id, Held> held_;
  std::map<size_t, std::thread::id> lastUser_;
};

// One executor, held from construction to destruction, by the thread that
// constructed it (its nested calls share it).
class Lease {
 public:
  explicit Lease(Leases& leases, std::optional<size_t> wanted = std::nullopt)
      : leases_(leases), thread_(std::this_thread::get_id()), executor_(leases.acquire(thread_, wanted)) {}
  ~Lease() { leases_.release(thread_); }
  Lease(const Lease&) = delete;
  Lease& operator=(const Lease&) = delete;
  Executor& operator*() const { return leases_[executor_]; }
  Executor* operator->() const { return &leases_[executor_]; }

 private:
  Leases& leases_;
  const std::thread::id thread_;
  const size_t executor_;
};

class LeasedCursor : public RowCursor {
 public:
  LeasedCursor(std::unique_ptr<Lease> lease, std::unique_ptr<RowCursor> inner)
      : lease_(std::move(lease)), inner_(std::move(inner)) {}
  std::optional<IdColumns> next() override { return inner_->next(); }

 private:
  std::unique_ptr<Lease> lease_;  // released after inner_ is gone (members go in reverse order)
  std::unique_ptr<RowCursor> inner_;
};

class PooledWalks : public WalkEstimator {
 public:
  PooledWalks(Leases& leases, WalkEstimator& first) : leases_(leases), first_(first) {}
  std::string name() const override { return first_.name(); }
  uint32_t defaultWalks() const override { return first_.defaultWalks(); }
  std::vector<std::vector<StepEstimate>> walkBatch(std::span<const ComponentPlan> plans, const BoundBgp& bgp,
                                                   const GraphStore& store, const WalkOptions& options) override {
    Lease lease(leases_);
    return lease->walkEstimator()->walkBatch(plans, bgp, store, options);
  }

 private:
  Leases& leases_;
  WalkEstimator& first_;  // the executors are alike: names and defaults from the first
};

class ExecutorPool : public Executor {
 public:
  explicit ExecutorPool(std::vector<std::unique_ptr<Executor>> executors) : leases_(std::move(executors)) {
    if (WalkEstimator* walks = leases_.any().walkEstimator()) walks_ = std::make_unique<PooledWalks>(leases_, *walks);
  }

  std::string name() const override { return leases_.any().name(); }
  IdColumns execute(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store, const BgpCall& options,
                    ExecutionProfile& profile) override {
    Lease lease(leases_);
    return lease->execute(plan, bgp, store, options, profile);
  }
  std::unique_ptr<RowCursor> open(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                                  const BgpCall& options, ExecutionProfile& profile) override {
    auto lease = std::make_unique<Lease>(leases_);
    auto cursor = (*lease)->open(plan, bgp, store, options, profile);
    return std::make_unique<LeasedCursor>(std::move(lease), std::move(cursor));
  }
  uint64_t count(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store, const BgpCall& options,
                 ExecutionProfile& profile) override {
    Lease lease(leases_);
    return lease->count(plan, bgp, store, options, profile);
  }
  uint64_t countDistinct(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                         const BgpCall& options, ExecutionProfile& profile, uint32_t column) override {
    Lease lease(leases_);
    return lease->countDistinct(plan, bgp, store, options, profile, column);
  }
  VertexCounts countByVertex(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                             const BgpCall& options, ExecutionProfile& profile, uint32_t column) override {
    Lease lease(leases_);
    return lease->countByVertex(plan, bgp, store, options, profile, column);
  }
  // Of the executor this thread would lease now (the one it used last, where idle).
  uint64_t bytesToCopy(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store) override {
    Lease lease(leases_);
    return lease->bytesToCopy(plan, bgp, store);
  }
  WalkEstimator* walkEstimator() override { return walks_.get(); }
  // The executors of a pool share one device: any of them keeps the shapes there.
  std::shared_ptr<geo::PointLocator> pointLocator(const geo::RingSet& shapes) override {
    return leases_.any().pointLocator(shapes);
  }
  // Each executor's own cache, one after another (they share the link to the
  // device), each once no query holds it: databases opened later share the
  // pool while the earlier ones' queries run (api/shared_gpu_executors.h).
  void preload(const GraphStore& store) override {
    for (size_t i = 0; i < leases_.size(); ++i) {
      Lease lease(leases_, i);
      lease->preload(store);
    }
  }

 private:
  Leases leases_;
  std::unique_ptr<WalkEstimator> walks_;
};

}  // namespace

std::unique_ptr<Executor> makeExecutorPool(std::vector<std::unique_ptr<Executor>> executors) {
  return std::make_unique<ExecutorPool>(std::move(executors));
}

}  // namespace gsparql::engine
