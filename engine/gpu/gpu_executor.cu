#include "engine/gpu/gpu_executor.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <numeric>
#include <optional>

#include "engine/component_product.h"
#include "engine/gpu/column_steps.h"
#include "engine/gpu/fused_step.cuh"
#include "engine/gpu/graph_cache.cuh"
#include "engine/gpu/join_kernels.cuh"
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

// A component's intermediate table on the device, one array per bound column.
struct DeviceTable {
  uint32_t rows = 1;
  std::vector<DeviceArray<uint32_t>> columns;
  std::vector<bool> bound;
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
  // One block for a step the plan expects to be small; more, up to all that fit, for larger ones.
  uint32_t blocksFor(const PlanStep& step, uint32_t fixed) const {
    const double blocks = fixed ? fixed : std::ceil(step.estimatedRows / gpu::kCandidatesPerFusedBlock);
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

class GpuExecutor final : public Executor {
 public:
  explicit GpuExecutor(const GpuOptions& options)
      : options_(options), freeAtStart_(freeMemory()),
        cache_(pool_, options.graphCacheBytes ? options.graphCacheBytes : freeAtStart_ / 4), cpu_(makeCpuExecutor()) {}

  std::string name() const override { return "gpu"; }

  IdTable execute(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store, const ExecutionOptions& options,
                  ExecutionProfile& profile) override {
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
    cache_.beginQuery();
    slicedSteps_ = 0;
    largestGrid_ = 1;
    layeredSteps_.clear();
    // One component's table is the result: only the columns read leave the GPU.
    const bool direct = plan.components.size() == 1;
    ExecutionOptions everyColumn = options;
    everyColumn.outputColumns.reset();
    const ExecutionOptions& componentOptions = direct ? options : everyColumn;
    std::vector<IdTable> tables;
    bool fused = false;
    for (uint32_t c = 0; c < plan.components.size(); ++c) {
      std::optional<IdTable> light;
      if (fuseLightSteps()) light = runFused(c, steps[c], bgp, store, componentOptions, profile);
      fused |= light.has_value();
      tables.push_back(light ? std::move(*light) : runComponent(c, steps[c], bgp, store, componentOptions, profile));
    }
    profile.note = std::string(fused ? std::string("steps fused into one kernel each, no host synchronisation between "
                                                   "them (step times are the device's, between CUDA events") +
                                           (options.stepTimes ? "); " : ", the last step's for all of them); ")
                                     : "") +
                   (largestGrid_ > 1 ? "largest fused step on a grid of " + std::to_string(largestGrid_) + " blocks; "
                                     : "") +
                   (slicedSteps_ ? std::to_string(slicedSteps_) + " step(s) processed in slices of rows; " : "") +
                   gpu::describeLayers(layeredSteps_) +
                   "adjacency uploaded for this query: " + std::to_string(cache_.bytesUploadedThisQuery()) + " bytes";
    if (direct) return std::move(tables.front());
    return options.select(componentProduct(std::move(tables), bgp, everyColumn));
  }

  // The GPU has no counting kernels yet: it counts the rows it makes. Where
  // a component's estimated rows would not fit a quarter of the device's
  // free memory, the CPU executor counts them instead, without making them.
  uint64_t count(const BgpPlan& plan, const BoundBgp& bgp, const GraphStore& store, const ExecutionOptions& options,
                 ExecutionProfile& profile) override {
    double largest = 0;
    for (const ComponentPlan& component : plan.components) {
      if (!component.steps.empty()) largest = std::max(largest, component.steps.back().estimatedRows);
    }
    const double bytes = largest * static_cast<double>(bgp.columnCount()) * sizeof(uint32_t);
    if (bytes <= static_cast<double>(freeAtStart_) / 4) return Executor::count(plan, bgp, store, options, profile);
    const uint64_t rows = cpu_->count(plan, bgp, store, options, profile);
    profile.note = "counted on the CPU executor: about " + std::to_string(static_cast<uint64_t>(largest)) +
                   " rows would not fit the GPU's memory, and the GPU counts only rows it makes";
    return rows;
  }

 private:
  // A LIMIT or ASK that reads a small part of a large result: the GPU
  // executor finds every row level by level, the CPU one stops early.
  static bool stopsFarBelowEstimate(const BgpPlan& plan, const ExecutionOptions& options) {
    constexpr double kFactor = 1000, kLeastRows = 1e6;
    return options.rowLimit && plan.estimatedRows() > std::max(kLeastRows, kFactor * static_cast<double>(*options.rowLimit));
  }

  static uint64_t freeMemory() {
    size_t free = 0, total = 0;
    GSPARQL_CUDA(cudaMemGetInfo(&free, &total));
    return free;
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
      s.candidateSets[s.candidateSetCount++] = cache_.keyBits(store, direction, e.predicate);
    }
  }

  void setSource(gpu::StepArgs& s, const gpu::ColumnStep& step, const GraphStore& store,
                 const std::vector<const uint32_t*>& columns) {
    using gpu::ColumnSource;
    if (step.drawsFromAllPredicates()) s.all = cache_.allPredicates(store, step.direction);
    switch (step.source) {
      case ColumnSource::Constant:
        s.source = gpu::Source::Constant;
        s.constant = step.constant;
        break;
      case ColumnSource::PredicateKeys:
        s.source = gpu::Source::Keys;
        s.driver = cache_.get(store, step.direction, step.predicate);
        break;
      case ColumnSource::RowPredicateKeys:
        s.source = gpu::Source::RowPredicateKeys;
        s.driverColumn = columns[step.predicate];
        break;
      case ColumnSource::Neighbours:
        s.source = gpu::Source::Neighbours;
        s.driver = cache_.get(store, step.direction, step.predicate);
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

  gpu::StepArgs argsFor(const gpu::ColumnStep& step, const GraphStore& store,
                        const std::vector<const uint32_t*>& columns, const std::vector<uint32_t>& earlier,
                        const ExecutionOptions& options) {
    auto column = [&](uint32_t c) { return c == gpu::kCandidate ? nullptr : columns[c]; };
    gpu::StepArgs s;
    s.plainCsr = options_.plainCsrLookups;
    s.injective = options.injective && step.isVertex;
    setSource(s, step, store, columns);
    for (const gpu::AdjacencyProbe& p : step.adjacencyProbes) {
      s.checks[s.checkCount++] = {cache_.get(store, p.direction, p.predicate), column(p.from)};
    }
    for (const gpu::VariablePredicateProbe& p : step.pairProbes) {
      s.pairs[s.pairCount++] = {cache_.allPredicates(store, p.direction), column(p.from), column(p.predicate),
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
                        const std::vector<uint32_t>& earlier, const ExecutionOptions& options) {
    std::vector<bool> boundAfter = bound;
    boundAfter[step.column] = true;
    gpu::StepArgs args = argsFor(step, store, columns, earlier, options);
    setCandidateSets(args, step, bgp, boundAfter, store);
    return args;
  }

  // A join step's output: one array per bound column (empty where unbound).
  struct Extension {
    std::vector<DeviceArray<uint32_t>> columns;
    uint32_t rows = 0;
  };

  gpu::Columns boundColumns(const std::vector<const uint32_t*>& in, std::vector<DeviceArray<uint32_t>>& next,
                            uint32_t rows) {
    gpu::Columns columns;
    for (uint32_t c = 0; c < in.size(); ++c) {
      if (in[c] == nullptr) continue;
      next[c] = DeviceArray<uint32_t>(pool_, rows);
      columns.in[columns.count] = in[c];
      columns.out[columns.count++] = next[c].data();
    }
    return columns;
  }

  uint64_t candidateBudget() const {
    if (options_.stepCandidateBudget != 0) return options_.stepCandidateBudget;
    // Each candidate may become a row of up to kMaxColumns columns, plus its survivor slot.
    return std::max<uint64_t>(uint64_t{1} << 20, freeAtStart_ / (4 * (gpu::kMaxColumns + 2)));
  }

  void extend(DeviceTable& table, uint32_t vertex, const gpu::StepArgs& s) {
    Extension e = extendRows(pointers(table), table.rows, vertex, s, true);
    table.columns = std::move(e.columns);
    table.bound[vertex] = true;
    table.rows = e.rows;
  }

  // One join step: size (with the histogram of row work), filter through
  // the load-balance layers, prefix sums, link (Prealloc-Combine), or count,
  // prefix sums, write, link (the two-pass ablation). When the step's
  // candidates exceed the budget, its rows are processed in slices.
  Extension extendRows(const std::vector<const uint32_t*>& in, uint32_t rows, uint32_t vertex, const gpu::StepArgs& s,
                       bool maySlice) {
    gpu::GeneralStep step(pool_, s, rows);
    if (maySlice && rows > 1 && step.candidates() > candidateBudget()) {
      return extendInSlices(in, rows, vertex, s, step.candidateStarts());
    }
    const gpu::Thresholds t = gpu::chooseThresholds(step.histogram(), gpu::deviceShape(), options_.loadBalance);
    if (!options_.naiveSetOperations) layeredSteps_.push_back({t, gpu::layerSizes(step.histogram(), t)});
    const uint32_t newRows = step.filter(t, options_.twoPassJoin, options_.naiveSetOperations);

    Extension out{std::vector<DeviceArray<uint32_t>>(in.size()), newRows};
    gpu::Columns columns = boundColumns(in, out.columns, newRows);
    out.columns[vertex] = DeviceArray<uint32_t>(pool_, newRows);
    columns.out[columns.count] = out.columns[vertex].data();  // the new column, written by link or by the second pass
    step.link(columns);
    return out;
  }

  // The step's arguments for the rows from `first` on: every column it reads, offset.
  static gpu::StepArgs fromRow(gpu::StepArgs s, uint32_t first) {
    auto shift = [first](const uint32_t*& column) {
      if (column != nullptr) column += first;
    };
    shift(s.driverColumn);
    shift(s.targetColumn);
    for (int i = 0; i < s.checkCount; ++i) shift(s.checks[i].boundColumn);
    for (int i = 0; i < s.pairCount; ++i) {
      shift(s.pairs[i].from);
      shift(s.pairs[i].predicate);
      shift(s.pairs[i].to);
    }
    for (int i = 0; i < s.predicateVertexCount; ++i) {
      shift(s.predicateVertices[i].predicate);
      shift(s.predicateVertices[i].vertex);
    }
    for (int i = 0; i < s.earlierCount; ++i) shift(s.earlier[i]);
    return s;
  }

  // Slices of consecutive rows whose candidates fit the budget, each extended
  // on its own, then concatenated in order.
  Extension extendInSlices(const std::vector<const uint32_t*>& in, uint32_t rows, uint32_t vertex,
                           const gpu::StepArgs& s, const uint64_t* deviceStarts) {
    std::vector<uint64_t> starts(rows + 1);
    GSPARQL_CUDA(cudaMemcpyAsync(starts.data(), deviceStarts, starts.size() * sizeof(uint64_t),
                                 cudaMemcpyDeviceToHost, pool_.stream()));
    pool_.synchronize();
    std::vector<Extension> parts;
    uint64_t total = 0;
    for (uint32_t first = 0; first < rows;) {
      uint32_t end = first + 1;
      while (end < rows && starts[end + 1] - starts[first] <= candidateBudget()) ++end;
      std::vector<const uint32_t*> slice(in);
      for (auto& column : slice) {
        if (column != nullptr) column += first;
      }
      parts.push_back(extendRows(slice, end - first, vertex, fromRow(s, first), false));
      total += parts.back().rows;
      first = end;
    }
    ++slicedSteps_;
    Extension out{std::vector<DeviceArray<uint32_t>>(in.size()), static_cast<uint32_t>(total)};
    for (uint32_t c = 0; c < in.size(); ++c) {
      if (in[c] == nullptr && c != vertex) continue;
      out.columns[c] = DeviceArray<uint32_t>(pool_, total);
      uint64_t at = 0;
      for (const Extension& part : parts) {
        GSPARQL_CUDA(cudaMemcpyAsync(out.columns[c].data() + at, part.columns[c].data(),
                                     uint64_t{part.rows} * sizeof(uint32_t), cudaMemcpyDeviceToDevice,
                                     pool_.stream()));
        at += part.rows;
      }
    }
    return out;
  }

  // Lays the columns the caller reads out as rows on the host (unbound ones: 0).
  IdTable download(const std::vector<const uint32_t*>& bound, uint32_t rows, const ExecutionOptions& options) {
    std::vector<uint32_t> wanted(bound.size());
    std::iota(wanted.begin(), wanted.end(), 0u);
    if (options.outputColumns) wanted = *options.outputColumns;
    gpu::Columns columns;
    for (uint32_t c : wanted) columns.in[columns.count++] = bound[c];
    IdTable out(static_cast<uint32_t>(wanted.size()));
    if (wanted.empty()) {
      out.setZeroWidthRows(rows);
      return out;
    }
    DeviceArray<uint32_t> table(pool_, uint64_t{rows} * wanted.size());
    gpu::launchToRows(columns, rows, table.data(), pool_.stream());
    out.data() = table.download();
    return out;
  }

  static std::vector<const uint32_t*> pointers(const DeviceTable& table) {
    std::vector<const uint32_t*> out(table.columns.size(), nullptr);
    for (size_t c = 0; c < out.size(); ++c) {
      if (table.bound[c]) out[c] = table.columns[c].data();
    }
    return out;
  }

  // The light-query path; nullopt when a step outgrew its capacity.
  std::optional<IdTable> runFused(uint32_t c, const std::vector<GpuStep>& steps, const BoundBgp& bgp,
                                  const GraphStore& store, const ExecutionOptions& options, ExecutionProfile& profile) {
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
      const uint32_t blocks = ws.blocksFor(*steps[k].plan, options_.fusedBlocks);
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

  IdTable runComponent(uint32_t c, const std::vector<GpuStep>& steps, const BoundBgp& bgp, const GraphStore& store,
                       const ExecutionOptions& options, ExecutionProfile& profile) {
    DeviceTable table;
    table.columns.resize(bgp.columnCount());
    table.bound.assign(bgp.columnCount(), false);
    std::vector<uint32_t> earlier;
    auto start = Clock::now();
    for (const GpuStep& gpuStep : steps) {
      options.throwIfStopped();
      const gpu::ColumnStep& step = gpuStep.step;
      gpu::StepArgs args = prepare(step, bgp, store, pointers(table), table.bound, earlier, options);
      extend(table, step.column, args);
      if (step.isVertex) earlier.push_back(step.column);
      if (gpuStep.endsPlanStep || table.rows == 0) {
        const PlanStep& planStep = *gpuStep.plan;
        profile.steps.push_back({c, planStep.vertex, planStep.estimatedRows, table.rows,
                                 std::chrono::duration<double, std::milli>(Clock::now() - start).count()});
        start = Clock::now();
      }
      if (table.rows == 0) break;
    }
    return download(pointers(table), table.rows, options);
  }

  bool fuseLightSteps() const {
    return options_.fuseLightSteps && !options_.plainCsrLookups && !options_.twoPassJoin &&
           !options_.naiveSetOperations;
  }

  FusedWorkspace& fusedWorkspace() {
    if (!fused_) fused_ = std::make_unique<FusedWorkspace>(pool_, options_.fusedCapacity);
    return *fused_;
  }

  GpuOptions options_;
  uint64_t freeAtStart_;
  uint32_t slicedSteps_ = 0;  // in the running query
  uint32_t largestGrid_ = 1;  // blocks of the running query's largest fused step
  std::vector<gpu::StepLayers> layeredSteps_;  // general-path steps of the running query, for the note
  gpu::DevicePool pool_;
  gpu::GraphCache cache_;
  std::unique_ptr<Executor> cpu_;
  std::unique_ptr<FusedWorkspace> fused_;  // after pool_: freed before it
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
