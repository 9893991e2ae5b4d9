#include "engine/gpu/gpu_executor.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <type_traits>

#include "engine/bgp/component_product.h"
#include "engine/bgp/distinct_vertices.h"
#include "engine/cpu/cpu_executor.h"
#include "engine/gpu/column_steps.h"
#include "engine/gpu/fused_step.cuh"
#include "engine/gpu/gpu_wander_join.cuh"
#include "engine/gpu/graph_cache.cuh"
#include "engine/gpu/join_kernels.cuh"
#include "engine/gpu/streaming_plan.h"
#include "engine/optimizer/walk_estimator.h"
#include "storage/graph_store.h"

namespace gsparql::engine {
namespace {

using Clock = std::chrono::steady_clock;
using gpu::DeviceArray;
using gpu::DeviceAdjacency;

// One kernel step: the column it binds, and the plan step it belongs to.
struct GpuStep {
  gpu::ColumnStep step;
  const PlanStep* plan = nullptr;
  bool endsPlanStep = false;  // its rows are the plan step's
};

std::vector<GpuStep> gpuSteps(const ComponentPlan& component, const BoundBgp& bgp) {
  std::vector<bool> predicateBound(bgp.predicateVariables.size(), false);
  std::vector<GpuStep> out;
  for (const PlanStep& planStep : component.steps) {
    std::vector<gpu::ColumnStep> steps = gpu::columnSteps(planStep, bgp, predicateBound);
    for (size_t i = 0; i < steps.size(); ++i) out.push_back({std::move(steps[i]), &planStep, i + 1 == steps.size()});
  }
  return out;
}

// Why a BGP cannot run on the GPU (empty: it can).
std::string unsupportedReason(const std::vector<std::vector<GpuStep>>& components, const BoundBgp& bgp) {
  if (bgp.columnCount() > gpu::kMaxColumns) return "more than 32 query vertices and predicate variables";
  for (const auto& steps : components) {
    for (const GpuStep& s : steps) {
      const size_t most = std::max({s.step.adjacencyProbes.size(), s.step.pairProbes.size(),
                                    s.step.predicateVertexProbes.size()});
      if (most > gpu::kMaxChecks) return "more than 8 edges checked in one step";
    }
  }
  return {};
}

// The adjacency (one predicate, one direction) the steps read through the
// graph cache, each once, with its size on the device.
std::vector<gpu::AdjacencyUse> adjacencyUses(const std::vector<std::vector<GpuStep>>& components,
                                             const GraphStore& store) {
  std::set<gpu::AdjacencyId> ids;
  for (const auto& steps : components) {
    for (const GpuStep& s : steps) {
      if (s.step.source == gpu::ColumnSource::PredicateKeys || s.step.source == gpu::ColumnSource::Neighbours) {
        ids.insert({s.step.direction, s.step.predicate});
      }
      for (const gpu::AdjacencyProbe& p : s.step.adjacencyProbes) ids.insert({p.direction, p.predicate});
    }
  }
  std::vector<gpu::AdjacencyUse> uses;
  for (const gpu::AdjacencyId& id : ids) {
    uses.push_back({id, gpu::wholeBytes(store.adjacency(id.first).predicate(id.second))});
  }
  return uses;
}

// A component's intermediate table on the device: one column per query
// column (null where unbound), in arrays it owns or, for a slice of rows,
// in its parent's.
struct Level {
  std::vector<DeviceArray<uint32_t>> owned;
  std::vector<const uint32_t*> columns;
  uint32_t rows = 1;
};

// Where a component's rows go: counted, marked (COUNT(DISTINCT ?v): the
// values of one column as bits over the vertices, counted at the end), or
// downloaded (the columns the caller reads) and appended in order.
struct ComponentRows {
  bool countOnly = false;
  uint64_t count = 0;
  std::optional<IdColumns> table;
  std::optional<DeviceArray<uint32_t>> distinctBits;
  uint32_t distinctColumn = 0;
};

// One component's depth-first run: its steps, what each step sees bound,
// and the rows and time each step accounted for over all slices.
struct ComponentRun {
  const std::vector<GpuStep>& steps;
  const BoundBgp& bgp;
  const GraphStore& store;
  const BgpCall& options;
  std::vector<std::vector<bool>> boundBefore;      // per step
  std::vector<std::vector<uint32_t>> earlierBefore;  // vertex columns bound before each step
  std::vector<uint64_t> rows;
  std::vector<double> milliseconds;
  std::vector<bool> reached;
  std::vector<std::optional<gpu::StepLayers>> layers;  // rows per load-balance layer, summed over slices
  ComponentRows out;
  size_t leavesFrom;  // the first of a count's leaves counted as products, or steps.size()

  ComponentRun(const std::vector<GpuStep>& steps, const BoundBgp& bgp, const GraphStore& store,
               const BgpCall& options, bool countOnly, size_t countedLeaves)
      : steps(steps), bgp(bgp), store(store), options(options), rows(steps.size()), milliseconds(steps.size()),
        reached(steps.size()), layers(steps.size()) {
    out.countOnly = countOnly;
    std::vector<bool> bound(bgp.columnCount(), false);
    std::vector<uint32_t> earlier;
    for (const GpuStep& s : steps) {
      boundBefore.push_back(bound);
      earlierBefore.push_back(earlier);
      bound[s.step.column] = true;
      if (s.step.isVertex) earlier.push_back(s.step.column);
    }
    // A plan step counted as a leaf binds no predicate: one column step each.
    leavesFrom = steps.size() - (countOnly ? countedLeaves : 0);
  }
};

// Buffers of the light-query path, allocated on first use: two sets of
// columns (read one, write the other) and the per-step scratch arrays.
struct FusedWorkspace {
  FusedWorkspace(gpu::DevicePool& pool, uint32_t capacity)
      : capacity(capacity), gridLimit(gpu::fusedGridLimit()), state(pool, 1), lists(pool, capacity),
        rowStarts(pool, size_t{capacity} + 1), survivorValues(pool, capacity), survivorRows(pool, capacity),
        blockTotals(pool, 2 * size_t{gridLimit}),
        columnSets{DeviceArray<uint32_t>(pool, size_t{gpu::kMaxColumns} * capacity),
                   DeviceArray<uint32_t>(pool, size_t{gpu::kMaxColumns} * capacity)} {
    buffers = {capacity,           state.data(),        lists.data(), rowStarts.data(), survivorValues.data(),
               survivorRows.data(), blockTotals.data()};
    for (cudaEvent_t& e : stepEnds) GSPARQL_CUDA(cudaEventCreate(&e));
  }
  ~FusedWorkspace() {
    for (cudaEvent_t e : stepEnds) cudaEventDestroy(e);
  }
  FusedWorkspace(const FusedWorkspace&) = delete;
  FusedWorkspace& operator=(const FusedWorkspace&) = delete;
  // Device milliseconds between two recorded events (stepEnds[k]: after step k - 1).
  double milliseconds(size_t from, size_t to) const {
    float ms = 0;
    GSPARQL_CUDA(cudaEventElapsedTime(&ms, stepEnds[from], stepEnds[to]));
    return ms;
  }
  uint32_t* column(int set, uint32_t c) { return columnSets[set].data() + size_t{c} * capacity; }
  // One block for a step the plan expects to be small; more, up to all that
  // fit, for larger ones. Its work is sizing the rows it reads and filtering
  // their candidates, not the rows it keeps: a step estimated to keep a few
  // thousand of 710,000 rows read (WatDiv's K6 counted from ?c) took 14 ms
  // on one block to find that its candidates overflow.
  uint32_t blocksFor(const PlanStep& step, double rowsBefore, uint32_t fixed) const {
    const double work = std::max({rowsBefore, step.estimatedCandidates, step.estimatedRows});
    const double blocks = fixed ? fixed : std::ceil(work / gpu::kCandidatesPerFusedBlock);
    return static_cast<uint32_t>(std::clamp(blocks, 1.0, static_cast<double>(gridLimit)));
  }

  uint32_t capacity;
  uint32_t gridLimit;
  DeviceArray<gpu::FusedState> state;
  DeviceArray<gpu::List> lists;
  DeviceArray<uint64_t> rowStarts;
  DeviceArray<uint32_t> survivorValues, survivorRows;
  DeviceArray<uint64_t> blockTotals;
  DeviceArray<uint32_t> columnSets[2];
  gpu::FusedBuffers buffers;
  std::array<cudaEvent_t, gpu::kMaxSteps + 1> stepEnds{};  // [0]: before the first step
};

// Also the optimizer's walk estimator on this executor's cached adjacency.
class GpuExecutor final : public Executor, public WalkEstimator {
 public:
  explicit GpuExecutor(const GpuOptions& options)
      : options_(options), memoryLimit_(memoryLimit(options)), pool_(options.simulatedDeviceBytes),
        cache_(pool_, options.graphCacheBytes ? options.graphCacheBytes : memoryLimit_ / 4), cpu_(makeCpuExecutor()) {}

  std::string name() const override { return "gpu"; }
  WalkEstimator* walkEstimator() override { return this; }
  uint32_t defaultWalks() const override { return 1u << 16; }

  // Between queries (the planner asks before the executor runs), so the
  // adjacency uploaded for the walks stays for the query's steps.
  // Where the device has no room for the walks, the CPU walks instead.
  std::vector<std::vector<StepEstimate>> walkBatch(std::span<const ComponentPlan> plans, const BoundBgp& bgp,
                                                   const GraphStore& store, const WalkOptions& options) override {
    // Walks read the adjacency whole: where the plans' would not fit the
    // cache, the CPU walks rather than push out the ranges queries stream.
    std::vector<std::vector<GpuStep>> steps;
    for (const ComponentPlan& plan : plans) steps.push_back(gpuSteps(plan, bgp));
    if (!gpu::planStreaming(adjacencyUses(steps, store), cache_.budget()).streamed.empty()) {
      return makeCpuWalkEstimator()->walkBatch(plans, bgp, store, options);
    }
    try {
      return gpu::wanderJoin(pool_, cache_, plans, bgp, store, options);
    } catch (const gpu::DeviceOutOfMemory&) {
      freeDeviceMemory();
      return makeCpuWalkEstimator()->walkBatch(plans, bgp, store, options);
    }
  }

  // The adjacency the plan's steps read that the cache lacks (streamed
  // adjacency is copied again by every query).
  uint64_t bytesToCopy(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store) override {
    std::vector<std::vector<GpuStep>> steps;
    for (const ComponentPlan& component : plan.components) steps.push_back(gpuSteps(component, bgp));
    uint64_t bytes = 0;
    for (const gpu::AdjacencyUse& use : adjacencyUses(steps, store)) {
      if (!cache_.holds(store, use.id.first, use.id.second)) bytes += use.bytes;
    }
    return bytes;
  }

  // Both directions of every predicate, in id order, each that still fits
  // the cache's budget (one that would not is left to the queries, which
  // stream it); until the device has no room left.
  void preload(const GraphStore& store) override {
    cache_.beginQuery();
    uint64_t held = 0;
    try {
      for (const pcsr::Direction direction : {pcsr::Direction::Out, pcsr::Direction::In}) {
        const AdjacencyFile& adjacency = store.adjacency(direction);
        for (uint32_t p = 0; p < adjacency.predicateCount(); ++p) {
          const uint64_t bytes = gpu::wholeBytes(adjacency.predicate(p));
          if (held + bytes > cache_.budget()) continue;
          cache_.get(store, direction, p);
          held += bytes;
        }
      }
    } catch (const gpu::DeviceOutOfMemory&) {
      // What is copied stays; the rest is copied by the queries that read it.
    }
  }

  IdColumns execute(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store, const BgpCall& options,
                  ExecutionProfile& profile) override {
    return orOnCpu(profile, [&] { return executeOnGpu(plan, bgp, store, options, profile); },
                   [&] { return cpu_->execute(plan, bgp, store, options, profile); });
  }

 protected:
  uint64_t countComponent(const BgpPlan& plan, uint32_t component, const BoundBgp& bgp, const GraphStore& store,
                          const BgpCall& options, ExecutionProfile& profile) override {
    return orOnCpu(profile, [&] { return countOnGpu(plan, component, bgp, store, options, profile); },
                   [&] { return cpu_->count(BgpPlan{{plan.components[component]}}, bgp, store, options, profile); });
  }

  uint64_t countDistinctInComponent(const BgpPlan& plan, uint32_t component, const BoundBgp& bgp,
                                    const GraphStore& store, const BgpCall& options,
                                    ExecutionProfile& profile, uint32_t column) override {
    return orOnCpu(
        profile, [&] { return countDistinctOnGpu(plan, component, bgp, store, options, profile, column); },
        [&] {
          return cpu_->countDistinct(BgpPlan{{plan.components[component]}}, bgp, store, options, profile, column);
        });
  }

 private:
  // `onGpu`, or where the device runs out of memory (a graph or a query
  // larger than it), `onCpu` after freeing what the GPU held: no query fails
  // because the device is too small. EXPLAIN says so.
  template <typename OnGpu, typename OnCpu>
  std::invoke_result_t<OnGpu&> orOnCpu(ExecutionProfile& profile, OnGpu&& onGpu, OnCpu&& onCpu) {
    try {
      return onGpu();
    } catch (const gpu::DeviceOutOfMemory& e) {
      freeDeviceMemory();
      profile = ExecutionProfile{};
      auto result = onCpu();
      profile.note = std::string("ran on the CPU executor: ") + e.what();
      return result;
    }
  }

  void freeDeviceMemory() {
    pool_.synchronize();
    fused_.reset();
    cache_.clear();
  }

  IdColumns executeOnGpu(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store,
                       const BgpCall& options, ExecutionProfile& profile) {
    std::vector<std::vector<GpuStep>> steps;
    for (const ComponentPlan& component : plan.components) steps.push_back(gpuSteps(component, bgp));
    if (std::string why = unsupportedReason(steps, bgp); !why.empty()) {
      profile.note = "ran on the CPU executor: " + why;
      return cpu_->execute(plan, bgp, store, options, profile);
    }
    if (stopsFarBelowEstimate(plan, options)) {
      profile.note = "ran on the CPU executor: its reader takes " + std::to_string(*options.rowLimit) +
                     " row(s), which the CPU finds depth-first, while the GPU would find all of about " +
                     std::to_string(static_cast<uint64_t>(plan.estimatedRows()));
      return cpu_->execute(plan, bgp, store, options, profile);
    }
    const QueryScope scope = beginQuery(steps, store);
    // One component's table is the result: only the columns read leave the GPU.
    const bool direct = plan.components.size() == 1;
    BgpCall everyColumn = options;
    everyColumn.outputColumns.reset();
    const BgpCall& componentOptions = direct ? options : everyColumn;
    std::vector<IdColumns> tables;
    for (uint32_t c = 0; c < plan.components.size(); ++c) {
      tables.push_back(std::move(*componentRows(c, steps[c], bgp, store, componentOptions, profile, false, 0).table));
    }
    noteRun(options, profile);
    if (direct) return std::move(tables.front());
    // A product of components (a rare cross product) multiplies rows.
    std::vector<IdRows> rows;
    for (const IdColumns& table : tables) rows.push_back(toRows(table));
    return toColumns(componentProduct(std::move(rows), bgp, everyColumn), options.outputColumns);
  }

  // Counted on the GPU in bounded memory: the last step's survivors are
  // counted, never written, and steps too large for the memory left run
  // depth-first over slices of rows.
  uint64_t countOnGpu(const BgpPlan& plan, uint32_t component, const BoundBgp& bgp, const GraphStore& store,
                      const BgpCall& options, ExecutionProfile& profile) {
    const std::vector<std::vector<GpuStep>> steps{gpuSteps(plan.components[component], bgp)};
    if (std::string why = unsupportedReason(steps, bgp); !why.empty()) {
      profile.note = "counted on the CPU executor: " + why;
      return cpu_->count(BgpPlan{{plan.components[component]}}, bgp, store, options, profile);
    }
    const QueryScope scope = beginQuery(steps, store);
    BgpCall noColumns = options;
    noColumns.outputColumns = std::vector<uint32_t>{};
    const size_t leaves = plan.components[component].countedLeaves();
    const uint64_t rows = componentRows(component, steps.front(), bgp, store, noColumns, profile, true, leaves).count;
    noteRun(options, profile);
    return rows;
  }

  // Marked on the GPU in a bitset over the vertices as the rows are found,
  // slice by slice, and never written out; light queries' rows (the fused
  // path) come down as one column and are marked on the host.
  uint64_t countDistinctOnGpu(const BgpPlan& plan, uint32_t component, const BoundBgp& bgp, const GraphStore& store,
                              const BgpCall& options, ExecutionProfile& profile, uint32_t column) {
    const std::vector<std::vector<GpuStep>> steps{gpuSteps(plan.components[component], bgp)};
    if (std::string why = unsupportedReason(steps, bgp); !why.empty()) {
      profile.note = "counted on the CPU executor: " + why;
      return cpu_->countDistinct(BgpPlan{{plan.components[component]}}, bgp, store, options, profile, column);
    }
    const QueryScope scope = beginQuery(steps, store);
    BgpCall oneColumn = options;
    oneColumn.outputColumns = std::vector<uint32_t>{column};
    std::optional<IdColumns> light;
    if (fuseLightSteps()) light = runFused(component, steps.front(), bgp, store, oneColumn, profile);
    uint64_t distinct = 0;
    if (light) {
      fusedRun_ = true;
      DistinctVertices values(store.catalog().vertexCount);
      values.add(light->column(0));
      distinct = values.count();
    } else {
      distinct = runComponent(component, steps.front(), bgp, store, options, profile, false, 0, column).count;
    }
    noteRun(options, profile);
    return distinct;
  }

  // Ends a query: uploads started for it finish before its snapshot may go.
  struct QueryScope {
    gpu::GraphCache& cache;
    ~QueryScope() { cache.drain(); }
  };

  QueryScope beginQuery(const std::vector<std::vector<GpuStep>>& steps, const GraphStore& store) {
    cache_.beginQuery();
    streaming_ = gpu::planStreaming(adjacencyUses(steps, store), cache_.budget());
    ranges_.clear();
    slicedSteps_ = 0;
    leavesCounted_ = 0;
    largestGrid_ = 1;
    fusedRun_ = false;
    layeredSteps_.clear();
    constantSets_.clear();
    for (const auto& component : steps) {
      for (const GpuStep& s : component) {
        if (s.step.source == gpu::ColumnSource::Constants) {
          constantSets_.insert_or_assign(s.step.column, gpu::toDevice(pool_, s.step.constants));
        }
      }
    }
    return QueryScope{cache_};
  }

  void noteRun(const BgpCall& options, ExecutionProfile& profile) const {
    profile.note = runNote(options);
    profile.copiedBytes += cache_.bytesUploadedThisQuery();
  }

  // What --explain says about how the GPU ran the query.
  std::string runNote(const BgpCall& options) const {
    return std::string(fusedRun_ ? std::string("steps fused into one kernel each, no host synchronisation between "
                                                "them (step times are the device's, between CUDA events") +
                                        (options.stepTimes ? "); " : ", the last step's for all of them); ")
                                  : "") +
           (largestGrid_ > 1 ? "largest fused step on a grid of " + std::to_string(largestGrid_) + " blocks; " : "") +
           (leavesCounted_ ? "the last " + std::to_string(leavesCounted_) +
                                 " steps counted without rows (the product of each row's survivor counts); "
                           : "") +
           (slicedSteps_ ? std::to_string(slicedSteps_) +
                               " step(s) too large for the memory left, run depth-first over slices of rows; "
                         : "") +
           gpu::describeLayers(layeredSteps_) + streamingNote() +
           "adjacency uploaded for this query: " + std::to_string(cache_.bytesUploadedThisQuery()) + " bytes";
  }

  std::string streamingNote() const {
    if (streaming_.streamed.empty()) return "";
    const gpu::StreamedRanges& r = cache_.streamedThisQuery();
    char times[96];
    std::snprintf(times, sizeof times, "copies took %.3f ms, the query waited %.3f ms for them; ",
                  r.copyMilliseconds, r.waitedMilliseconds);
    return std::to_string(streaming_.streamed.size()) + " adjacency(s) streamed in key ranges of at most " +
           std::to_string(streaming_.partitionBytes) + " bytes: " + std::to_string(r.ranges) + " range(s) of " +
           std::to_string(r.bytes) + " bytes and " + std::to_string(r.packed) + " packed list set(s) of " +
           std::to_string(r.packedBytes) + " bytes uploaded, " + times;
  }

  // A component's rows (or their count, its plan's `countedLeaves` counted
  // as products): light queries through the fused path, the rest, or what
  // outgrew it, through the general path.
  ComponentRows componentRows(uint32_t c, const std::vector<GpuStep>& steps, const BoundBgp& bgp,
                              const GraphStore& store, const BgpCall& options, ExecutionProfile& profile,
                              bool countOnly, size_t countedLeaves) {
    if (fuseLightSteps()) {
      if (std::optional<IdColumns> light = runFused(c, steps, bgp, store, options, profile)) {
        fusedRun_ = true;
        const uint64_t rows = light->rows();
        return {countOnly, rows, std::move(light)};
      }
    }
    return runComponent(c, steps, bgp, store, options, profile, countOnly, countedLeaves);
  }
  // A LIMIT or ASK that reads a small part of a large result: the GPU
  // executor finds every row level by level, the CPU one stops early.
  static bool stopsFarBelowEstimate(const BgpPlan& plan, const BgpCall& options) {
    constexpr double kFactor = 1000, kLeastRows = 1e6;
    return options.rowLimit && plan.estimatedRows() > std::max(kLeastRows, kFactor * static_cast<double>(*options.rowLimit));
  }

  // The device memory this executor may hold: what is free at start, or
  // less where the options say so (--gpu-memory), shared with the executors
  // made beside it.
  static uint64_t memoryLimit(const GpuOptions& options) {
    size_t free = 0, total = 0;
    GSPARQL_CUDA(cudaMemGetInfo(&free, &total));
    uint64_t limit = options.memoryBytes ? std::min<uint64_t>(options.memoryBytes, free) : free;
    if (options.simulatedDeviceBytes) limit = std::min(limit, options.simulatedDeviceBytes);
    return limit / std::max(1u, options.memoryShares);
  }

  // Candidates must have every edge to a vertex bound later: the cached key
  // bitsets of those edges, each probed by the kernels.
  void setCandidateSets(gpu::StepArgs& s, const gpu::ColumnStep& step, const BoundBgp& bgp,
                        const std::vector<bool>& boundAfter, const GraphStore& store) {
    if (!step.isVertex) return;
    const uint32_t v = step.column;
    for (const auto& e : bgp.edges) {
      if ((e.from != v && e.to != v) || e.from == e.to || e.predicateIsVariable) continue;
      if (boundAfter[e.from == v ? e.to : e.from] || s.candidateSetCount == gpu::kMaxChecks) continue;
      const auto direction = e.from == v ? pcsr::Direction::Out : pcsr::Direction::In;
      if (streaming_.streams(direction, e.predicate)) continue;  // only a filter: not worth a whole upload
      s.candidateSets[s.candidateSetCount++] = cache_.keyBits(store, direction, e.predicate);
    }
  }

  // A step's driver adjacency, unless streamed: then each key range in turn (runStep).
  DeviceAdjacency wholeDriver(const gpu::ColumnStep& step, const GraphStore& store) {
    return streamsDriver(step) ? DeviceAdjacency{} : cache_.get(store, step.direction, step.predicate);
  }
  bool streamsDriver(const gpu::ColumnStep& step) const {
    return (step.source == gpu::ColumnSource::PredicateKeys || step.source == gpu::ColumnSource::Neighbours) &&
           streaming_.streams(step.direction, step.predicate);
  }

  void setSource(gpu::StepArgs& s, const gpu::ColumnStep& step, const BoundBgp& bgp, const GraphStore& store,
                 const std::vector<const uint32_t*>& columns) {
    using gpu::ColumnSource;
    if (step.drawsFromAllPredicates()) s.all = cache_.allPredicates(store, step.direction, bgp);
    switch (step.source) {
      case ColumnSource::Constant:
        s.source = gpu::Source::Constant;
        s.constant = step.constant;
        break;
      case ColumnSource::Constants: {  // drawn like a predicate's keys: one sorted list for every row
        const DeviceArray<uint32_t>& set = constantSets_.at(step.column);
        s.source = gpu::Source::Keys;
        s.driver.keys = set.data();
        s.driver.keyCount = static_cast<uint32_t>(set.size());
        break;
      }
      case ColumnSource::PredicateKeys:
        s.source = gpu::Source::Keys;
        s.driver = wholeDriver(step, store);
        break;
      case ColumnSource::RowPredicateKeys:
        s.source = gpu::Source::RowPredicateKeys;
        s.driverColumn = columns[step.predicate];
        break;
      case ColumnSource::Neighbours:
        s.source = gpu::Source::Neighbours;
        s.driver = wholeDriver(step, store);
        s.driverColumn = columns[step.from];
        break;
      case ColumnSource::DistinctNeighbours:
        s.source = gpu::Source::DistinctNeighbours;
        s.driverColumn = columns[step.from];
        break;
      case ColumnSource::AllVertices:
        s.source = gpu::Source::AllVertices;
        s.vertexCount = static_cast<uint32_t>(store.catalog().vertexCount);
        break;
      case ColumnSource::PredicatesBetween:
        s.source = gpu::Source::PredicatesBetween;
        s.driverColumn = columns[step.from];
        s.targetColumn = columns[step.to];
        break;
    }
  }

  gpu::StepArgs argsFor(const gpu::ColumnStep& step, const BoundBgp& bgp, const GraphStore& store,
                        const std::vector<const uint32_t*>& columns, const std::vector<uint32_t>& earlier,
                        const BgpCall& options) {
    auto column = [&](uint32_t c) { return c == gpu::kCandidate ? nullptr : columns[c]; };
    gpu::StepArgs s;
    s.plainCsr = options_.plainCsrLookups;
    s.injective = options.injective && step.isVertex;
    setSource(s, step, bgp, store, columns);
    for (const gpu::AdjacencyProbe& p : step.adjacencyProbes) {
      if (streaming_.streams(p.direction, p.predicate)) continue;  // checked after the step (checkStreamed)
      s.checks[s.checkCount++] = {cache_.get(store, p.direction, p.predicate), column(p.from)};
    }
    for (const gpu::VariablePredicateProbe& p : step.pairProbes) {
      s.pairs[s.pairCount++] = {cache_.allPredicates(store, p.direction, bgp), column(p.from), column(p.predicate),
                                column(p.to)};
    }
    for (const gpu::PredicateVertexEquality& p : step.predicateVertexProbes) {
      s.predicateVertices[s.predicateVertexCount++] = {column(p.predicate), column(p.vertex)};
    }
    if (s.predicateVertexCount > 0) s.predicateVertexIds = cache_.predicateVertexIds(store);
    if (step.isVertex) {
      for (uint32_t v : earlier) s.earlier[s.earlierCount++] = columns[v];
    }
    return s;
  }

  // The step's arguments, with the candidate filter of a vertex step.
  gpu::StepArgs prepare(const gpu::ColumnStep& step, const BoundBgp& bgp, const GraphStore& store,
                        const std::vector<const uint32_t*>& columns, const std::vector<bool>& bound,
                        const std::vector<uint32_t>& earlier, const BgpCall& options) {
    std::vector<bool> boundAfter = bound;
    boundAfter[step.column] = true;
    gpu::StepArgs args = argsFor(step, bgp, store, columns, earlier, options);
    setCandidateSets(args, step, bgp, boundAfter, store);
    return args;
  }

  // Arrays for the bound columns of `in` (written by link) and the new
  // column: the next level's table.
  gpu::Columns nextColumns(const std::vector<const uint32_t*>& in, uint32_t vertex, Level& next) {
    next.owned.resize(in.size());
    next.columns.assign(in.size(), nullptr);
    gpu::Columns columns;
    for (uint32_t c = 0; c < in.size(); ++c) {
      if (in[c] == nullptr && c != vertex) continue;
      next.owned[c] = DeviceArray<uint32_t>(pool_, next.rows);
      next.columns[c] = next.owned[c].data();
      if (c == vertex) continue;
      columns.in[columns.count] = in[c];
      columns.out[columns.count++] = next.owned[c].data();
    }
    columns.out[columns.count] = next.owned[vertex].data();  // the new column, written by link or by the second pass
    return columns;
  }

  // Candidates one step may hold: half of the memory left under the limit,
  // each candidate taking `bytesPerCandidate`; at least an eighth of the
  // limit, for when the adjacency a query needs fills it (it is not
  // streamed yet) and slices would otherwise shrink to nothing.
  uint64_t candidateBudget(double bytesPerCandidate) const {
    if (options_.stepCandidateBudget != 0) return options_.stepCandidateBudget;
    const uint64_t used = pool_.bytesInUse();
    const double left = used < memoryLimit_ ? static_cast<double>(memoryLimit_ - used) : 0;
    const double candidates = std::max(left / 2, static_cast<double>(memoryLimit_) / 8) / bytesPerCandidate;
    return std::max<uint64_t>(4096, static_cast<uint64_t>(candidates));
  }
  // A step that writes rows: a survivor slot and a row of `width` columns per candidate.
  static double rowBytes(uint32_t width) { return (width + 2.0) * sizeof(uint32_t); }
  // A step that only counts: two 4-byte counts per chunk of candidates.
  static constexpr double kCountBytes = 2.0 * sizeof(uint32_t) / gpu::kChunk;

  // Step k on `level`, then the steps after it (DGSM): a step whose
  // candidates exceed the memory left runs on slices of consecutive rows,
  // each taken through every later step before the next, so intermediate
  // results of any size need memory for one slice per step. A step whose
  // driver adjacency is streamed runs once per key range of it: a row's key
  // lies in one range, and a lookup in the others finds nothing, so the
  // passes together make the step's rows, each once.
  void descend(ComponentRun& run, Level level, size_t k) {
    if (level.rows == 0) return;
    if (k == run.steps.size()) return take(run, level);
    if (k == run.leavesFrom && k + 1 < run.steps.size()) return countLeaves(run, level, k);
    const gpu::ColumnStep& step = run.steps[k].step;
    if (!streamsDriver(step)) return runStep(run, level, k, nullptr, true);
    const uint32_t* keys = step.source == gpu::ColumnSource::Neighbours ? level.columns[step.from] : nullptr;
    forEachRange(run.store, {step.direction, step.predicate}, keys, level.rows,
                 [&](const DeviceAdjacency& range) { runStep(run, level, k, &range, false); });
  }

  // One pass of step k over `level` (with `driverRange`: its driver's key
  // range). Size (with the histogram of row work), filter through the
  // load-balance layers, prefix sums, link (Prealloc-Combine), or count,
  // prefix sums, write, link (the two-pass ablation); the last step of a
  // count only counts. `freeLevel`: no later pass reads `level`.
  void runStep(ComponentRun& run, Level& level, size_t k, const DeviceAdjacency* driverRange, bool freeLevel) {
    run.options.throwIfStopped();
    const auto start = Clock::now();
    const gpu::ColumnStep& columnStep = run.steps[k].step;
    prefetchFirstRanges(run, level, k);
    gpu::StepArgs args =
        prepare(columnStep, run.bgp, run.store, level.columns, run.boundBefore[k], run.earlierBefore[k], run.options);
    if (driverRange) args.driver = *driverRange;
    auto step = std::make_unique<gpu::GeneralStep>(pool_, args, level.rows);
    const uint64_t budget = candidateBudget(rowBytes(run.bgp.columnCount()));
    if (level.rows > 1 && step->candidates() > budget) {
      const std::vector<uint32_t> ends = sliceEnds(*step, level.rows, budget);
      step.reset();
      run.milliseconds[k] += std::chrono::duration<double, std::milli>(Clock::now() - start).count();
      ++slicedSteps_;
      return forEachSlice(level, ends, [&](Level& slice) { runStep(run, slice, k, driverRange, true); });
    }
    const gpu::Thresholds t = gpu::chooseThresholds(step->histogram(), gpu::deviceShape(), options_.loadBalance);
    if (!options_.naiveSetOperations) addLayers(run.layers[k], {t, gpu::layerSizes(step->histogram(), t)});
    const bool checksLater = streamsAProbe(columnStep);
    const bool countHere = run.out.countOnly && k + 1 == run.steps.size() && !checksLater;
    Level next{{}, {}, step->filter(t, options_.twoPassJoin || countHere, options_.naiveSetOperations)};
    if (countHere) {
      run.out.count += next.rows;
    } else {
      step->link(nextColumns(level.columns, columnStep.column, next));
    }
    step.reset();
    if (freeLevel) level.owned.clear();  // freed in stream order, after the kernels that read it
    if (checksLater) next = checkStreamed(run.store, columnStep, std::move(next));
    run.reached[k] = true;
    run.rows[k] += next.rows;
    run.milliseconds[k] += std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    if (!countHere) descend(run, std::move(next), k + 1);
  }

  // `pass` on consecutive slices of the level's rows.
  template <typename Pass>
  static void forEachSlice(const Level& level, const std::vector<uint32_t>& ends, Pass&& pass) {
    for (uint32_t first = 0; const uint32_t end : ends) {
      Level slice{{}, level.columns, end - first};
      for (const uint32_t*& column : slice.columns) {
        if (column != nullptr) column += first;
      }
      pass(slice);
      first = end;
    }
  }

  bool streamsAProbe(const gpu::ColumnStep& step) const {
    return std::ranges::any_of(step.adjacencyProbes, [&](const gpu::AdjacencyProbe& p) {
      return streaming_.streams(p.direction, p.predicate);
    });
  }

  // The key ranges of a streamed adjacency, cut on first use in the query.
  const std::vector<gpu::KeyRange>& rangesOf(const GraphStore& store, gpu::AdjacencyId id) {
    auto it = ranges_.find(id);
    if (it == ranges_.end()) {
      const PredicateAdjacency& host = store.adjacency(id.first).predicate(id.second);
      it = ranges_.emplace(id, gpu::keyRanges(host, streaming_.partitionBytes)).first;
    }
    return it->second;
  }

  // The ranges that hold one of `values`.
  std::vector<gpu::KeyRange> rangesHolding(const GraphStore& store, gpu::AdjacencyId id,
                                           const std::vector<uint32_t>& values) {
    const std::vector<gpu::KeyRange>& ranges = rangesOf(store, id);
    const std::span<const uint32_t> sortedKeys = store.adjacency(id.first).predicate(id.second).keys();
    std::vector<bool> holds(ranges.size(), false);
    for (uint32_t v : values) {
      // The last range whose first key is not above v.
      const auto after = std::upper_bound(ranges.begin(), ranges.end(), v, [&](uint32_t x, const gpu::KeyRange& r) {
        return x < sortedKeys[r.first];
      });
      if (after != ranges.begin()) holds[after - ranges.begin() - 1] = true;
    }
    std::vector<gpu::KeyRange> out;
    for (size_t i = 0; i < ranges.size(); ++i) {
      if (holds[i]) out.push_back(ranges[i]);
    }
    return out;
  }

  // `pass` over a streamed adjacency as the `rows` keys in `keys` (null:
  // every key) need it. Few rows: their keys are read to the host and, where
  // their lists are small, packed and uploaded for one pass; otherwise one
  // pass per key range that holds a key, the next range uploading while it
  // runs, each held (not evicted) during its pass.
  template <typename Pass>
  void forEachRange(const GraphStore& store, gpu::AdjacencyId id, const uint32_t* keys, uint32_t rows, Pass&& pass) {
    std::vector<gpu::KeyRange> ranges;
    if (keys != nullptr && rows <= options_.streamedKeysRead) {
      std::vector<uint32_t> values(rows);
      GSPARQL_CUDA(cudaMemcpyAsync(values.data(), keys, rows * sizeof(uint32_t), cudaMemcpyDeviceToHost,
                                   pool_.stream()));
      pool_.synchronize();
      const PredicateAdjacency& host = store.adjacency(id.first).predicate(id.second);
      if (const auto packed = gpu::packLists(host, values, streaming_.partitionBytes)) {
        const gpu::GraphCache::PackedOnDevice lists = cache_.upload(*packed);
        return pass(lists.view);
      }
      ranges = rangesHolding(store, id, values);
    } else {
      ranges = rangesOf(store, id);
    }
    for (size_t i = 0; i < ranges.size(); ++i) {
      const DeviceAdjacency range = cache_.acquire(store, id.first, id.second, ranges[i]);
      struct Hold {
        gpu::GraphCache& cache;
        const GraphStore& store;
        gpu::AdjacencyId id;
        gpu::KeyRange range;
        ~Hold() { cache.release(store, id.first, id.second, range); }
      } hold{cache_, store, id, ranges[i]};
      if (i + 1 < ranges.size()) cache_.prefetch(store, id.first, id.second, ranges[i + 1]);
      pass(range);
    }
  }

  // Starts uploading, while step k runs, the first key range of what it
  // checks after its kernels and of what step k + 1 draws from, where they
  // will read every range: all keys, or more rows than are read to choose.
  void prefetchFirstRanges(const ComponentRun& run, const Level& level, size_t k) {
    if (streaming_.streamed.empty()) return;
    auto prefetch = [&](gpu::AdjacencyId id, bool everyKey) {
      if (!everyKey && level.rows <= options_.streamedKeysRead) return;  // few rows: packed lists or chosen ranges
      const std::vector<gpu::KeyRange>& ranges = rangesOf(run.store, id);
      if (!ranges.empty()) cache_.prefetch(run.store, id.first, id.second, ranges.front());
    };
    for (const gpu::AdjacencyProbe& p : run.steps[k].step.adjacencyProbes) {
      if (streaming_.streams(p.direction, p.predicate)) prefetch({p.direction, p.predicate}, false);
    }
    if (k + 1 == run.steps.size() || !streamsDriver(run.steps[k + 1].step)) return;
    const gpu::ColumnStep& next = run.steps[k + 1].step;
    prefetch({next.direction, next.predicate}, next.source == gpu::ColumnSource::PredicateKeys);
  }

  // The rows of `next` that pass the step's edges to streamed adjacency:
  // per edge, each key range marks the rows whose edge it holds, then the
  // marked rows are kept.
  Level checkStreamed(const GraphStore& store, const gpu::ColumnStep& step, Level next) {
    for (const gpu::AdjacencyProbe& p : step.adjacencyProbes) {
      if (next.rows == 0) break;
      if (!streaming_.streams(p.direction, p.predicate)) continue;
      DeviceArray<uint32_t> flags(pool_, size_t{next.rows} + 1), positions(pool_, size_t{next.rows} + 1);
      GSPARQL_CUDA(cudaMemsetAsync(flags.data(), 0, flags.bytes(), pool_.stream()));
      const uint32_t* candidates = next.columns[step.column];
      const uint32_t* from = p.from == gpu::kCandidate ? candidates : next.columns[p.from];
      forEachRange(store, {p.direction, p.predicate}, from, next.rows, [&](const DeviceAdjacency& range) {
        gpu::launchMarkEdges(range, from, candidates, next.rows, flags.data(), pool_.stream());
      });
      Level kept{{}, {}, gpu::flaggedPositions(pool_, flags.data(), next.rows, positions.data())};
      gpu::Columns columns;
      kept.owned.resize(next.columns.size());
      kept.columns.assign(next.columns.size(), nullptr);
      for (uint32_t c = 0; c < next.columns.size(); ++c) {
        if (next.columns[c] == nullptr) continue;
        kept.owned[c] = DeviceArray<uint32_t>(pool_, kept.rows);
        kept.columns[c] = kept.owned[c].data();
        columns.in[columns.count] = next.columns[c];
        columns.out[columns.count++] = kept.owned[c].data();
      }
      gpu::launchKeepRows(flags.data(), positions.data(), next.rows, columns, pool_.stream());
      next = std::move(kept);
    }
    return next;
  }

  // The leaf steps from k on, counted without rows: each row of `level`
  // adds the product of its survivor counts in every leaf step. A leaf
  // whose candidates outgrow the memory left sends the level's rows through
  // in slices, once this call's arrays are freed.
  void countLeaves(ComponentRun& run, const Level& level, size_t k) {
    run.options.throwIfStopped();
    const auto start = Clock::now();
    std::vector<uint32_t> sliceAt;  // where slices end, when needed
    std::vector<uint64_t> rows;     // per leaf: the rows the leaves up to it would make
    std::vector<gpu::StepLayers> layers;
    {
      DeviceArray<uint64_t> products(pool_, level.rows);
      for (size_t j = k; j < run.steps.size(); ++j) {
        const gpu::StepArgs args = prepare(run.steps[j].step, run.bgp, run.store, level.columns, run.boundBefore[k],
                                           run.earlierBefore[k], run.options);
        gpu::GeneralStep step(pool_, args, level.rows);
        const uint64_t budget = candidateBudget(kCountBytes);
        if (level.rows > 1 && step.candidates() > budget) {
          sliceAt = sliceEnds(step, level.rows, budget);
          break;
        }
        const gpu::Thresholds t = gpu::chooseThresholds(step.histogram(), gpu::deviceShape(), options_.loadBalance);
        layers.push_back({t, gpu::layerSizes(step.histogram(), t)});
        step.filter(t, true, options_.naiveSetOperations);
        step.multiplyRowCounts(products.data(), j == k);
        rows.push_back(gpu::saturatingSum(pool_, products.data(), level.rows));
      }
    }
    run.milliseconds[k] += std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    if (!sliceAt.empty()) {
      ++slicedSteps_;
      return forEachSlice(level, sliceAt, [&](Level& slice) { descend(run, std::move(slice), k); });
    }
    run.out.count = checkedAdd(run.out.count, rows.back());
    leavesCounted_ = std::max(leavesCounted_, run.steps.size() - k);
    for (size_t j = k; j < run.steps.size(); ++j) {
      if (!options_.naiveSetOperations) addLayers(run.layers[j], layers[j - k]);
      run.reached[j] = true;
      run.rows[j] = saturatingAdd(run.rows[j], rows[j - k]);
    }
  }

  // A slice's rows per layer added to the step's (thresholds: the first slice's).
  static void addLayers(std::optional<gpu::StepLayers>& step, const gpu::StepLayers& slice) {
    if (!step) {
      step = slice;
      return;
    }
    for (size_t l = 0; l < slice.sizes.rows.size(); ++l) {
      step->sizes.rows[l] = static_cast<uint32_t>(
          std::min<uint64_t>(UINT32_MAX, uint64_t{step->sizes.rows[l]} + slice.sizes.rows[l]));
    }
  }

  // Where each slice of a step's rows ends: consecutive rows whose
  // candidates fit `budget` (a row alone may exceed it).
  std::vector<uint32_t> sliceEnds(const gpu::GeneralStep& step, uint32_t rows, uint64_t budget) {
    std::vector<uint64_t> starts(rows + 1);
    GSPARQL_CUDA(cudaMemcpyAsync(starts.data(), step.candidateStarts(), starts.size() * sizeof(uint64_t),
                                 cudaMemcpyDeviceToHost, pool_.stream()));
    pool_.synchronize();
    std::vector<uint32_t> ends;
    for (uint32_t first = 0; first < rows;) {
      uint32_t end = first + 1;
      while (end < rows && starts[end + 1] - starts[first] <= budget) ++end;
      ends.push_back(end);
      first = end;
    }
    return ends;
  }

  // A finished slice of the component's rows, counted, marked or appended.
  void take(ComponentRun& run, const Level& level) {
    if (run.out.countOnly) {
      run.out.count += level.rows;
      return;
    }
    if (run.out.distinctBits) {
      gpu::launchSetBits(level.columns[run.out.distinctColumn], level.rows, run.out.distinctBits->data(),
                         pool_.stream());
      return;
    }
    IdColumns rows = download(level.columns, level.rows, run.options);
    if (!run.out.table) {
      run.out.table = std::move(rows);
      return;
    }
    run.options.checkMemory((run.out.table->rows() + rows.rows()) * rows.width() * sizeof(uint32_t),
                            "the GPU's result rows");
    run.out.table->append(rows);
  }

  // The columns the caller reads, on the host (unbound ones: 0): packed one
  // after another on the device, brought over in one copy.
  IdColumns download(const std::vector<const uint32_t*>& bound, uint32_t rows, const BgpCall& options) {
    std::vector<uint32_t> wanted(bound.size());
    std::iota(wanted.begin(), wanted.end(), 0u);
    if (options.outputColumns) wanted = *options.outputColumns;
    gpu::Columns columns;
    for (uint32_t c : wanted) columns.in[columns.count++] = bound[c];
    IdColumns out(static_cast<uint32_t>(wanted.size()));
    out.setRows(rows);
    if (wanted.empty() || rows == 0) return out;
    DeviceArray<uint32_t> packed(pool_, uint64_t{rows} * wanted.size());
    gpu::launchPackColumns(columns, rows, packed.data(), pool_.stream());
    const std::vector<uint32_t> host = packed.download();
    for (uint32_t c = 0; c < wanted.size(); ++c) {
      const auto from = host.begin() + static_cast<std::ptrdiff_t>(uint64_t{c} * rows);
      out.column(c).assign(from, from + rows);
    }
    return out;
  }

  // The light-query path; nullopt when a step outgrew its capacity.
  std::optional<IdColumns> runFused(uint32_t c, const std::vector<GpuStep>& steps, const BoundBgp& bgp,
                                  const GraphStore& store, const BgpCall& options, ExecutionProfile& profile) {
    if (steps.size() > gpu::kMaxSteps) return std::nullopt;
    FusedWorkspace& ws = fusedWorkspace();
    gpu::launchFusedReset(ws.buffers.state, pool_.stream());
    GSPARQL_CUDA(cudaEventRecord(ws.stepEnds[0], pool_.stream()));
    // Events between steps cost the host a little per step: only when asked.
    auto timed = [&](size_t k) { return options.stepTimes || k + 1 == steps.size(); };
    std::vector<const uint32_t*> current(bgp.columnCount(), nullptr);
    std::vector<bool> bound(bgp.columnCount(), false);
    std::vector<uint32_t> earlier;
    int set = 0;
    double rowsBefore = 1;  // estimated, entering step k
    for (size_t k = 0; k < steps.size(); ++k) {
      const gpu::ColumnStep& step = steps[k].step;
      gpu::StepArgs args = prepare(step, bgp, store, current, bound, earlier, options);
      set = 1 - set;
      gpu::Columns columns;
      for (uint32_t col = 0; col < bgp.columnCount(); ++col) {
        if (!bound[col]) continue;
        columns.in[columns.count] = current[col];
        columns.out[columns.count++] = ws.column(set, col);
        current[col] = ws.column(set, col);
      }
      columns.out[columns.count] = ws.column(set, step.column);
      current[step.column] = ws.column(set, step.column);
      const uint32_t blocks = ws.blocksFor(*steps[k].plan, rowsBefore, options_.fusedBlocks);
      if (steps[k].endsPlanStep) rowsBefore = steps[k].plan->estimatedRows;
      largestGrid_ = std::max(largestGrid_, blocks);
      gpu::launchFusedStep(args, columns, static_cast<uint32_t>(columns.count), static_cast<int>(k), ws.buffers,
                           blocks, pool_.stream());
      if (timed(k)) GSPARQL_CUDA(cudaEventRecord(ws.stepEnds[k + 1], pool_.stream()));
      bound[step.column] = true;
      if (step.isVertex) earlier.push_back(step.column);
    }
    gpu::FusedState state = ws.state.download().front();
    if (state.overflow) return std::nullopt;
    double milliseconds = 0;
    size_t since = 0;  // the last recorded event
    for (size_t k = 0; k < steps.size(); ++k) {
      const PlanStep& step = *steps[k].plan;
      if (timed(k)) {
        milliseconds += ws.milliseconds(since, k + 1);
        since = k + 1;
      }
      if (!steps[k].endsPlanStep) continue;
      profile.steps.push_back({c, step.vertex, step.estimatedRows, state.stepRows[k], milliseconds});
      milliseconds = 0;
    }
    return download(current, state.rows, options);
  }

  // `distinctColumn`: count the distinct values of that column instead of
  // handing rows out.
  ComponentRows runComponent(uint32_t c, const std::vector<GpuStep>& steps, const BoundBgp& bgp,
                             const GraphStore& store, const BgpCall& options, ExecutionProfile& profile,
                             bool countOnly, size_t countedLeaves,
                             std::optional<uint32_t> distinctColumn = std::nullopt) {
    // Leaves counted as products read their adjacency whole: not when streaming.
    ComponentRun run(steps, bgp, store, options, countOnly, streaming_.streamed.empty() ? countedLeaves : 0);
    const uint64_t words = (store.catalog().vertexCount + 31) / 32;
    if (distinctColumn) {
      run.out.distinctColumn = *distinctColumn;
      run.out.distinctBits.emplace(pool_, words);
      GSPARQL_CUDA(cudaMemsetAsync(run.out.distinctBits->data(), 0, run.out.distinctBits->bytes(), pool_.stream()));
    }
    descend(run, Level{{}, std::vector<const uint32_t*>(bgp.columnCount(), nullptr), 1}, 0);
    profile.countedLeaves += run.steps.size() - run.leavesFrom;
    if (run.out.distinctBits) {
      run.out.count = gpu::countSetBits(pool_, run.out.distinctBits->data(), words);
      run.out.distinctBits.reset();
    } else if (!run.out.countOnly && !run.out.table) {
      run.out.table = IdColumns(options.outputColumns ? static_cast<uint32_t>(options.outputColumns->size())
                                                       : bgp.columnCount());
    }
    double milliseconds = 0;
    for (size_t k = 0; k < steps.size() && run.reached[k]; ++k) {
      if (run.layers[k]) layeredSteps_.push_back(*run.layers[k]);
      milliseconds += run.milliseconds[k];
      if (!steps[k].endsPlanStep && k + 1 < steps.size() && run.reached[k + 1]) continue;
      const PlanStep& planStep = *steps[k].plan;
      profile.steps.push_back({c, planStep.vertex, planStep.estimatedRows, run.rows[k], milliseconds});
      milliseconds = 0;
    }
    return std::move(run.out);
  }

  // The fused path reads adjacency whole: not when the query streams it.
  bool fuseLightSteps() const {
    return options_.fuseLightSteps && !options_.plainCsrLookups && !options_.twoPassJoin &&
           !options_.naiveSetOperations && streaming_.streamed.empty();
  }

  FusedWorkspace& fusedWorkspace() {
    // Its buffers take an eighth of the memory limit at most.
    constexpr uint64_t kBytesPerCandidate =
        sizeof(gpu::List) + sizeof(uint64_t) + 2 * sizeof(uint32_t) + 2 * gpu::kMaxColumns * sizeof(uint32_t);
    const uint64_t fits = std::max<uint64_t>(1024, memoryLimit_ / 8 / kBytesPerCandidate);
    if (!fused_) fused_ = std::make_unique<FusedWorkspace>(pool_, std::min<uint64_t>(options_.fusedCapacity, fits));
    return *fused_;
  }

  GpuOptions options_;
  uint64_t memoryLimit_;
  gpu::StreamingPlan streaming_;  // of the running query
  std::map<gpu::AdjacencyId, std::vector<gpu::KeyRange>> ranges_;  // of its streamed adjacency, made on first use
  uint32_t slicedSteps_ = 0;  // in the running query
  size_t leavesCounted_ = 0;  // steps counted as products in the running query
  bool fusedRun_ = false;    // the running query took the fused path
  uint32_t largestGrid_ = 1;  // blocks of the running query's largest fused step
  std::vector<gpu::StepLayers> layeredSteps_;  // general-path steps of the running query, for the note
  gpu::DevicePool pool_;
  gpu::GraphCache cache_;
  std::unique_ptr<Executor> cpu_;
  std::unique_ptr<FusedWorkspace> fused_;  // after pool_: freed before it
  std::map<uint32_t, DeviceArray<uint32_t>> constantSets_;  // the running query's vertices limited to sets
};

}  // namespace

// Asked of the driver once per process: --backend auto asks before every
// query, and the answer cannot change while the process runs.
bool gpuAvailable() {
  static const bool available = [] {
    int devices = 0;
    return cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
  }();
  return available;
}

std::unique_ptr<Executor> makeGpuExecutor(const GpuOptions& options) {
  if (!gpuAvailable()) throw QueryError("no CUDA device is available; use --backend cpu");
  return std::make_unique<GpuExecutor>(options);
}

}  // namespace gsparql::engine
