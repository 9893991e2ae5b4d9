#include "engine/placement/device_spread_executor.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <iterator>
#include <mutex>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <type_traits>

#include "engine/optimizer/cost_model.h"
#include "engine/optimizer/walk_estimator.h"
#include "storage/graph_store.h"

namespace gsparql::engine {
namespace {

using Clock = std::chrono::steady_clock;

// The candidates of a component's first step, where its runs can be cut by
// them: a predicate's keys, a set of constants or every vertex, in id order.
class FirstCandidates {
 public:
  static std::optional<FirstCandidates> of(const ComponentPlan& component, const BoundBgp& bgp,
                                           const GraphStore& store) {
    const PlanStep& first = component.steps.front();
    switch (first.source) {
      case CandidateSource::Constants:
        return FirstCandidates(bgp.vertices[first.vertex].constants);
      case CandidateSource::PredicateKeys: {
        const BoundEdge& edge = bgp.edges[first.driver.edge];
        if (edge.predicateIsVariable) return std::nullopt;
        return FirstCandidates(store.adjacency(first.driver.direction).predicate(edge.predicate).keys());
      }
      case CandidateSource::AllVertices: {
        FirstCandidates all;
        all.owned_.resize(store.catalog().vertexCount);
        std::iota(all.owned_.begin(), all.owned_.end(), 0u);
        all.ids_ = all.owned_;
        return all;
      }
      default:
        return std::nullopt;  // one constant: nothing to cut
    }
  }

  std::span<const uint32_t> ids() const { return ids_; }

  FirstCandidates(FirstCandidates&& other) noexcept
      : owned_(std::move(other.owned_)), ids_(owned_.empty() ? other.ids_ : std::span<const uint32_t>(owned_)) {}

 private:
  FirstCandidates() = default;
  explicit FirstCandidates(std::span<const uint32_t> ids) : ids_(ids) {}
  std::vector<uint32_t> owned_;  // AllVertices'
  std::span<const uint32_t> ids_;
};

// A component cut into runs of its first step's candidates.
class Chunks {
 public:
  Chunks(const ComponentPlan& component, const BoundBgp& bgp, FirstCandidates candidates, size_t count)
      : component_(component), bgp_(bgp), candidates_(std::move(candidates)),
        count_(std::min(count, candidates_.ids().size())) {}

  size_t size() const { return count_; }
  uint32_t firstVertex() const { return component_.steps.front().vertex; }

  // Chunk `i`: the component alone, its first vertex limited to the chunk's candidates.
  struct Chunk {
    BgpPlan plan;
    BoundBgp bgp;
  };
  Chunk chunk(size_t i) const {
    const std::span<const uint32_t> ids = candidates_.ids();
    const size_t begin = ids.size() * i / count_, end = ids.size() * (i + 1) / count_;
    Chunk c{BgpPlan{{component_}}, bgp_};
    c.plan.components[0].steps.front().source = CandidateSource::Constants;
    c.bgp.vertices[firstVertex()].constants.assign(ids.begin() + begin, ids.begin() + end);
    return c;
  }

 private:
  const ComponentPlan& component_;
  const BoundBgp& bgp_;
  FirstCandidates candidates_;
  size_t count_;
};

// What each device did for one cut call, for EXPLAIN.
struct DeviceShare {
  size_t chunks = 0;
  double milliseconds = 0;
};

// Adds a chunk's profile to the call's: rows and times add step by step.
void addChunkProfile(ExecutionProfile& total, const ExecutionProfile& chunk) {
  for (size_t i = 0; i < chunk.steps.size(); ++i) {
    if (i == total.steps.size()) {
      total.steps.push_back(chunk.steps[i]);
      continue;
    }
    total.steps[i].actualRows = saturatingAdd(total.steps[i].actualRows, chunk.steps[i].actualRows);
    total.steps[i].milliseconds += chunk.steps[i].milliseconds;
  }
  if (total.note.empty()) total.note = chunk.note;
  total.copiedBytes += chunk.copiedBytes;
  total.countedLeaves = chunk.countedLeaves;
}

struct Device {
  std::string name;
  std::unique_ptr<Executor> executor;
  std::atomic<uint32_t> inFlight{0};
};

// One call on a device, counted as in flight for its duration.
class Running {
 public:
  explicit Running(Device& device) : device_(device) { ++device_.inFlight; }
  ~Running() { --device_.inFlight; }
  Running(const Running&) = delete;
  Running& operator=(const Running&) = delete;
  Executor& operator*() const { return *device_.executor; }
  Executor* operator->() const { return device_.executor.get(); }

 private:
  Device& device_;
};

class DeviceSpreadExecutor final : public Executor {
 public:
  DeviceSpreadExecutor(std::vector<SpreadDevice> devices, const SpreadOptions& options) : options_(options) {
    for (SpreadDevice& d : devices) {
      auto device = std::make_unique<Device>();  // it holds an atomic: made in place, never moved
      device->name = std::move(d.name);
      device->executor = std::move(d.executor);
      devices_.push_back(std::move(device));
    }
    if (WalkEstimator* first = devices_.front()->executor->walkEstimator()) {
      walks_ = std::make_unique<SpreadWalks>(*this, *first);
    }
  }

  std::string name() const override { return devices_.front()->executor->name(); }
  WalkEstimator* walkEstimator() override { return walks_.get(); }

  IdColumns execute(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store, const BgpCall& options,
                    ExecutionProfile& profile) override {
    if (plan.components.size() == 1 && !options.rowLimit && isHeavy(planCost(options_.costs, plan), profile)) {
      if (auto chunks = cut(plan.components[0], bgp, store)) return executeCut(*chunks, store, options, profile);
    }
    return onQuietest(profile, [&](Executor& e) { return e.execute(plan, bgp, store, options, profile); });
  }

  uint64_t count(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store, const BgpCall& options,
                 ExecutionProfile& profile) override {
    if (options.injective || !isHeavy(countCost(options_.costs, plan), profile)) {
      return onQuietest(profile, [&](Executor& e) { return e.count(plan, bgp, store, options, profile); });
    }
    return Executor::count(plan, bgp, store, options, profile);  // component by component, below
  }

  uint64_t countDistinct(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                         const BgpCall& options, ExecutionProfile& profile, uint32_t column) override {
    if (options.injective || !isHeavy(planCost(options_.costs, plan), profile)) {
      return onQuietest(profile,
                        [&](Executor& e) { return e.countDistinct(plan, bgp, store, options, profile, column); });
    }
    return Executor::countDistinct(plan, bgp, store, options, profile, column);
  }

  VertexCounts countByVertex(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                             const BgpCall& options, ExecutionProfile& profile, uint32_t column) override {
    if (options.injective || !isHeavy(planCost(options_.costs, plan), profile)) {
      return onQuietest(profile,
                        [&](Executor& e) { return e.countByVertex(plan, bgp, store, options, profile, column); });
    }
    return Executor::countByVertex(plan, bgp, store, options, profile, column);  // component by component, below
  }

  uint64_t bytesToCopy(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store) override {
    return quietest().executor->bytesToCopy(plan, bgp, store);
  }
  std::shared_ptr<geo::PointLocator> pointLocator(const geo::RingSet& shapes) override {
    return quietest().executor->pointLocator(shapes);
  }

  // Every device holds its own copy: all copy at once.
  void preload(const GraphStore& store) override {
    forEachDevice([&](size_t d) { devices_[d]->executor->preload(store); });
  }

 protected:
  uint64_t countComponent(const BgpPlan& plan, uint32_t component, const BoundBgp& bgp, const GraphStore& store,
                          const BgpCall& options, ExecutionProfile& profile) override {
    const BgpPlan alone{{plan.components[component]}};
    ExecutionProfile part;
    uint64_t rows = 0;
    if (auto chunks = cut(plan.components[component], bgp, store)) {
      rows = sumOverChunks(*chunks, part, [&](Executor& e, const Chunks::Chunk& c, ExecutionProfile& p) {
        return e.count(c.plan, c.bgp, store, options, p);
      });
    } else {
      rows = onQuietest(part, [&](Executor& e) { return e.count(alone, bgp, store, options, part); });
    }
    addComponentProfile(profile, component, part);
    return rows;
  }

  // Each chunk holds its own values of the first vertex: their distinct
  // counts add. Of another vertex they would not: that runs on one device.
  uint64_t countDistinctInComponent(const BgpPlan& plan, uint32_t component, const BoundBgp& bgp,
                                    const GraphStore& store, const BgpCall& options, ExecutionProfile& profile,
                                    uint32_t column) override {
    const BgpPlan alone{{plan.components[component]}};
    ExecutionProfile part;
    uint64_t distinct = 0;
    auto chunks = cut(plan.components[component], bgp, store);
    if (chunks && chunks->firstVertex() == column) {
      distinct = sumOverChunks(*chunks, part, [&](Executor& e, const Chunks::Chunk& c, ExecutionProfile& p) {
        return e.countDistinct(c.plan, c.bgp, store, options, p, column);
      });
    } else {
      distinct = onQuietest(part, [&](Executor& e) { return e.countDistinct(alone, bgp, store, options, part, column); });
    }
    addComponentProfile(profile, component, part);
    return distinct;
  }

  // A vertex's rows may lie in several chunks (of any vertex but the
  // first): each chunk counts its own, and the counts add.
  VertexCounts countByVertexInComponent(const BgpPlan& plan, uint32_t component, const BoundBgp& bgp,
                                        const GraphStore& store, const BgpCall& options, ExecutionProfile& profile,
                                        uint32_t column) override {
    const BgpPlan alone{{plan.components[component]}};
    ExecutionProfile part;
    VertexCounts counts;
    if (auto chunks = cut(plan.components[component], bgp, store)) {
      counts = addCounts(
          runChunks<VertexCounts>(*chunks, part, [&](Executor& e, const Chunks::Chunk& c, ExecutionProfile& p) {
            return e.countByVertex(c.plan, c.bgp, store, options, p, column);
          }));
    } else {
      counts = onQuietest(part, [&](Executor& e) { return e.countByVertex(alone, bgp, store, options, part, column); });
    }
    addComponentProfile(profile, component, part);
    return counts;
  }

 private:
  // Says in EXPLAIN what the cost model priced the call at: the measure the
  // threshold is tuned by.
  bool isHeavy(double microseconds, ExecutionProfile& profile) const {
    if (devices_.size() < 2) return false;
    char priced[48];
    std::snprintf(priced, sizeof priced, "priced %.3g ms", microseconds / 1000);
    addNote(profile, priced);
    return microseconds >= options_.splitMicroseconds;
  }

  std::optional<Chunks> cut(const ComponentPlan& component, const BoundBgp& bgp, const GraphStore& store) const {
    std::optional<FirstCandidates> candidates = FirstCandidates::of(component, bgp, store);
    if (!candidates || candidates->ids().size() < 2) return std::nullopt;
    return Chunks(component, bgp, std::move(*candidates), devices_.size() * options_.chunksPerDevice);
  }

  Device& quietest() const {
    return **std::min_element(devices_.begin(), devices_.end(),
                              [](const auto& a, const auto& b) { return a->inFlight < b->inFlight; });
  }

  // `call` on the device with the fewest calls in flight, named in the
  // profile's note where there is more than one.
  template <typename Call>
  std::invoke_result_t<Call&, Executor&> onQuietest(ExecutionProfile& profile, Call&& call) {
    Device& device = quietest();
    Running running(device);
    auto result = call(*running);
    if (devices_.size() > 1) addNote(profile, "on " + device.name);
    return result;
  }

  static void addNote(ExecutionProfile& profile, const std::string& note) {
    profile.note = profile.note.empty() ? note : profile.note + "; " + note;
  }

  // Calls `work(d)` for every device d, each on a thread of its own (the
  // first on the caller's); rethrows the first failure once all have returned.
  template <typename Work>
  void forEachDevice(Work&& work) {
    std::mutex mutex;
    std::exception_ptr failure;
    const auto guarded = [&](size_t d) {
      try {
        work(d);
      } catch (...) {
        std::lock_guard lock(mutex);
        if (!failure) failure = std::current_exception();
      }
    };
    {
      std::vector<std::jthread> others;
      for (size_t d = 1; d < devices_.size(); ++d) others.emplace_back(guarded, d);
      guarded(0);
    }
    if (failure) std::rethrow_exception(failure);
  }

  // Runs `run(executor, chunk, profile)` for every chunk, each device taking
  // the next chunk as it finishes one (a chunk of hubs does not hold the
  // others up); after a failure no device takes another. Each chunk's result
  // and profile are kept at its index.
  template <typename Result, typename Run>
  std::vector<Result> runChunks(const Chunks& chunks, ExecutionProfile& profile, Run&& run) {
    std::vector<Result> results(chunks.size());
    std::vector<ExecutionProfile> profiles(chunks.size());
    std::vector<DeviceShare> shares(devices_.size());
    std::atomic<size_t> next{0};
    std::atomic<bool> failed{false};
    // A failure (a decline too: the placer then runs the whole call on the
    // CPU executor) is rethrown once every device has stopped.
    forEachDevice([&](size_t d) {
      Running running(*devices_[d]);
      for (size_t i; !failed && (i = next++) < chunks.size();) {
        const Clock::time_point start = Clock::now();
        try {
          results[i] = run(*running, chunks.chunk(i), profiles[i]);
        } catch (...) {
          failed = true;
          throw;
        }
        ++shares[d].chunks;
        shares[d].milliseconds += std::chrono::duration<double, std::milli>(Clock::now() - start).count();
      }
    });
    for (const ExecutionProfile& p : profiles) addChunkProfile(profile, p);
    addNote(profile, spreadNote(chunks.size(), shares));
    return results;
  }

  template <typename Run>
  uint64_t sumOverChunks(const Chunks& chunks, ExecutionProfile& profile, Run&& run) {
    uint64_t total = 0;
    for (uint64_t n : runChunks<uint64_t>(chunks, profile, run)) total = checkedAdd(total, n);
    return total;
  }

  IdColumns executeCut(const Chunks& chunks, const GraphStore& store, const BgpCall& options,
                       ExecutionProfile& profile) {
    std::vector<IdColumns> parts =
        runChunks<IdColumns>(chunks, profile, [&](Executor& e, const Chunks::Chunk& c, ExecutionProfile& p) {
          return e.execute(c.plan, c.bgp, store, options, p);
        });
    IdColumns rows = std::move(parts.front());
    for (size_t i = 1; i < parts.size(); ++i) rows.append(parts[i]);
    return rows;
  }

  std::string spreadNote(size_t chunks, const std::vector<DeviceShare>& shares) const {
    std::string note = "cut into " + std::to_string(chunks) + " chunks of the first step's candidates:";
    for (size_t d = 0; d < devices_.size(); ++d) {
      char share[96];
      std::snprintf(share, sizeof share, "%s %s ran %zu (%.3g ms)", d == 0 ? "" : ",", devices_[d]->name.c_str(),
                    shares[d].chunks, shares[d].milliseconds);
      note += share;
    }
    return note;
  }

  // The optimizer's walks over the devices (SpreadOptions::splitWalks).
  class SpreadWalks final : public WalkEstimator {
   public:
    SpreadWalks(DeviceSpreadExecutor& spread, WalkEstimator& first) : spread_(spread), first_(first) {}
    std::string name() const override { return first_.name(); }
    uint32_t defaultWalks() const override { return first_.defaultWalks(); }
    std::vector<std::vector<StepEstimate>> walkBatch(std::span<const ComponentPlan> plans, const BoundBgp& bgp,
                                                     const GraphStore& store, const WalkOptions& options) override {
      return spread_.walkBatch(plans, bgp, store, options);
    }

   private:
    DeviceSpreadExecutor& spread_;
    WalkEstimator& first_;  // the devices are alike: names and defaults from the first
  };

  // A batch of splitWalks walks or more is dealt out in runs of plans, one
  // run per device, walked at once; a smaller one goes to the quietest device.
  std::vector<std::vector<StepEstimate>> walkBatch(std::span<const ComponentPlan> plans, const BoundBgp& bgp,
                                                   const GraphStore& store, const WalkOptions& options) {
    const size_t runs = std::min(devices_.size(), plans.size());
    if (runs < 2 || uint64_t{options.walks} * plans.size() < options_.splitWalks) {
      Running running(quietest());
      return running->walkEstimator()->walkBatch(plans, bgp, store, options);
    }
    std::vector<std::vector<std::vector<StepEstimate>>> parts(runs);
    forEachDevice([&](size_t d) {
      if (d >= runs) return;
      const size_t begin = plans.size() * d / runs, end = plans.size() * (d + 1) / runs;
      Running running(*devices_[d]);
      parts[d] = running->walkEstimator()->walkBatch(plans.subspan(begin, end - begin), bgp, store, options);
    });
    std::vector<std::vector<StepEstimate>> estimates;
    for (auto& part : parts) std::move(part.begin(), part.end(), std::back_inserter(estimates));
    return estimates;
  }

  std::vector<std::unique_ptr<Device>> devices_;
  SpreadOptions options_;
  std::unique_ptr<SpreadWalks> walks_;
};

}  // namespace

std::unique_ptr<Executor> makeDeviceSpreadExecutor(std::vector<SpreadDevice> devices, const SpreadOptions& options) {
  return std::make_unique<DeviceSpreadExecutor>(std::move(devices), options);
}

}  // namespace gsparql::engine
