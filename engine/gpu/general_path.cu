// The general path of a run (gpu_run.cuh): one kernel step at a time
// (join_kernels.cuh), each level's table on the device, depth-first over
// slices of rows where a step's candidates outgrow the memory left (DGSM),
// once per key range where its driver adjacency is streamed, and a count's
// leaves multiplied instead of made.
#include <algorithm>
#include <chrono>

#include "engine/gpu/gpu_run.cuh"
#include "storage/graph_store.h"

namespace gsparql::engine::gpu {
namespace {

using Clock = std::chrono::steady_clock;

// A step that writes rows: a survivor slot and a row of `width` columns per candidate.
double rowBytes(uint32_t width) { return (width + 2.0) * sizeof(uint32_t); }
// A step that only counts: two 4-byte counts per chunk of candidates.
constexpr double kCountBytes = 2.0 * sizeof(uint32_t) / kChunk;

// `pass` on consecutive slices of the level's rows.
template <typename Pass>
void forEachSlice(const Level& level, const std::vector<uint32_t>& ends, Pass&& pass) {
  for (uint32_t first = 0; const uint32_t end : ends) {
    Level slice{{}, level.columns, end - first};
    for (const uint32_t*& column : slice.columns) {
      if (column != nullptr) column += first;
    }
    pass(slice);
    first = end;
  }
}

// A slice's rows per layer added to the step's (thresholds: the first slice's).
void addLayers(std::optional<StepLayers>& step, const StepLayers& slice) {
  if (!step) {
    step = slice;
    return;
  }
  for (size_t l = 0; l < slice.sizes.rows.size(); ++l) {
    step->sizes.rows[l] =
        static_cast<uint32_t>(std::min<uint64_t>(UINT32_MAX, uint64_t{step->sizes.rows[l]} + slice.sizes.rows[l]));
  }
}

}  // namespace

// Step k on `level`, then the steps after it (DGSM): a step whose
// candidates exceed the memory left runs on slices of consecutive rows,
// each taken through every later step before the next, so intermediate
// results of any size need memory for one slice per step. A step whose
// driver adjacency is streamed runs once per key range of it: a row's key
// lies in one range, and a lookup in the others finds nothing, so the
// passes together make the step's rows, each once.
void BgpRun::descend(ComponentRun& run, Level level, size_t k) {
  if (level.rows == 0) return;
  if (k == run.steps.size()) return take(run, level);
  if (k == run.leavesFrom && k + 1 < run.steps.size()) return countLeaves(run, level, k);
  const ColumnStep& step = run.steps[k].step;
  if (!streamsDriver(step)) return runStep(run, level, k, nullptr, true);
  const uint32_t* keys = step.source == ColumnSource::Neighbours ? level.columns[step.from] : nullptr;
  streaming_.forEachRange({step.direction, step.predicate}, keys, level.rows,
                          [&](const DeviceAdjacency& range) { runStep(run, level, k, &range, false); });
}

// One pass of step k over `level` (with `driverRange`: its driver's key
// range). Size (with the histogram of row work), filter through the
// load-balance layers, prefix sums, link (Prealloc-Combine), or count,
// prefix sums, write, link (the two-pass ablation); the last step of a
// count only counts. `freeLevel`: no later pass reads `level`.
void BgpRun::runStep(ComponentRun& run, Level& level, size_t k, const DeviceAdjacency* driverRange, bool freeLevel) {
  run.options.throwIfStopped();
  const auto start = Clock::now();
  const ColumnStep& columnStep = run.steps[k].step;
  prefetchFirstRanges(run, level, k);
  StepArgs args = prepare(columnStep, level.columns, run.boundBefore[k], run.earlierBefore[k], run.options);
  if (driverRange) args.driver = *driverRange;
  auto step = std::make_unique<GeneralStep>(device_.pool(), args, level.rows);
  const uint64_t budget = device_.candidateBudget(rowBytes(bgp_.columnCount()));
  if (level.rows > 1 && step->candidates() > budget) {
    const std::vector<uint32_t> ends = sliceEnds(*step, level.rows, budget);
    step.reset();
    run.milliseconds[k] += std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    ++slicedSteps_;
    return forEachSlice(level, ends, [&](Level& slice) { runStep(run, slice, k, driverRange, true); });
  }
  const Thresholds t = chooseThresholds(step->histogram(), deviceShape(), options_.loadBalance);
  if (!options_.naiveSetOperations) addLayers(run.layers[k], {t, layerSizes(step->histogram(), t)});
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
  if (checksLater) next = checkStreamed(columnStep, std::move(next));
  run.reached[k] = true;
  run.rows[k] += next.rows;
  run.milliseconds[k] += std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  if (!countHere) descend(run, std::move(next), k + 1);
}

// Arrays for the bound columns of `in` (written by link) and the new
// column: the next level's table.
Columns BgpRun::nextColumns(const std::vector<const uint32_t*>& in, uint32_t vertex, Level& next) {
  next.owned.resize(in.size());
  next.columns.assign(in.size(), nullptr);
  Columns columns;
  for (uint32_t c = 0; c < in.size(); ++c) {
    if (in[c] == nullptr && c != vertex) continue;
    next.owned[c] = DeviceArray<uint32_t>(device_.pool(), next.rows);
    next.columns[c] = next.owned[c].data();
    if (c == vertex) continue;
    columns.in[columns.count] = in[c];
    columns.out[columns.count++] = next.owned[c].data();
  }
  columns.out[columns.count] = next.owned[vertex].data();  // the new column, written by link or by the second pass
  return columns;
}

bool BgpRun::streamsAProbe(const ColumnStep& step) const {
  return std::ranges::any_of(step.adjacencyProbes,
                             [&](const AdjacencyProbe& p) { return streaming_.streams(p.direction, p.predicate); });
}

// Starts uploading, while step k runs, the first key range of what it
// checks after its kernels and of what step k + 1 draws from, where they
// will read every range: all keys, or more rows than are read to choose.
void BgpRun::prefetchFirstRanges(const ComponentRun& run, const Level& level, size_t k) {
  if (!streaming_.any()) return;
  auto prefetch = [&](AdjacencyId id, bool everyKey) {
    if (!everyKey && level.rows <= options_.streamedKeysRead) return;  // few rows: packed lists or chosen ranges
    streaming_.prefetchFirstRange(id);
  };
  for (const AdjacencyProbe& p : run.steps[k].step.adjacencyProbes) {
    if (streaming_.streams(p.direction, p.predicate)) prefetch({p.direction, p.predicate}, false);
  }
  if (k + 1 == run.steps.size() || !streamsDriver(run.steps[k + 1].step)) return;
  const ColumnStep& next = run.steps[k + 1].step;
  prefetch({next.direction, next.predicate}, next.source == ColumnSource::PredicateKeys);
}

// The rows of `next` that pass the step's edges to streamed adjacency:
// per edge, each key range marks the rows whose edge it holds, then the
// marked rows are kept.
Level BgpRun::checkStreamed(const ColumnStep& step, Level next) {
  DevicePool& pool = device_.pool();
  for (const AdjacencyProbe& p : step.adjacencyProbes) {
    if (next.rows == 0) break;
    if (!streaming_.streams(p.direction, p.predicate)) continue;
    DeviceArray<uint32_t> flags(pool, size_t{next.rows} + 1), positions(pool, size_t{next.rows} + 1);
    GSPARQL_CUDA(cudaMemsetAsync(flags.data(), 0, flags.bytes(), pool.stream()));
    const uint32_t* candidates = next.columns[step.column];
    const uint32_t* from = p.from == kCandidate ? candidates : next.columns[p.from];
    streaming_.forEachRange({p.direction, p.predicate}, from, next.rows, [&](const DeviceAdjacency& range) {
      launchMarkEdges(range, from, candidates, next.rows, flags.data(), pool.stream());
    });
    Level kept{{}, {}, flaggedPositions(pool, flags.data(), next.rows, positions.data())};
    Columns columns;
    kept.owned.resize(next.columns.size());
    kept.columns.assign(next.columns.size(), nullptr);
    for (uint32_t c = 0; c < next.columns.size(); ++c) {
      if (next.columns[c] == nullptr) continue;
      kept.owned[c] = DeviceArray<uint32_t>(pool, kept.rows);
      kept.columns[c] = kept.owned[c].data();
      columns.in[columns.count] = next.columns[c];
      columns.out[columns.count++] = kept.owned[c].data();
    }
    launchKeepRows(flags.data(), positions.data(), next.rows, columns, pool.stream());
    next = std::move(kept);
  }
  return next;
}

// The leaf steps from k on, counted without rows: each row of `level`
// adds the product of its survivor counts in every leaf step. A leaf
// whose candidates outgrow the memory left sends the level's rows through
// in slices, once this call's arrays are freed.
void BgpRun::countLeaves(ComponentRun& run, const Level& level, size_t k) {
  run.options.throwIfStopped();
  const auto start = Clock::now();
  std::vector<uint32_t> sliceAt;  // where slices end, when needed
  std::vector<uint64_t> rows;     // per leaf: the rows the leaves up to it would make
  std::vector<StepLayers> layers;
  {
    DeviceArray<uint64_t> products(device_.pool(), level.rows);
    for (size_t j = k; j < run.steps.size(); ++j) {
      const StepArgs args =
          prepare(run.steps[j].step, level.columns, run.boundBefore[k], run.earlierBefore[k], run.options);
      GeneralStep step(device_.pool(), args, level.rows);
      const uint64_t budget = device_.candidateBudget(kCountBytes);
      if (level.rows > 1 && step.candidates() > budget) {
        sliceAt = sliceEnds(step, level.rows, budget);
        break;
      }
      const Thresholds t = chooseThresholds(step.histogram(), deviceShape(), options_.loadBalance);
      layers.push_back({t, layerSizes(step.histogram(), t)});
      step.filter(t, true, options_.naiveSetOperations);
      step.multiplyRowCounts(products.data(), j == k);
      rows.push_back(saturatingSum(device_.pool(), products.data(), level.rows));
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

// Where each slice of a step's rows ends: consecutive rows whose
// candidates fit `budget` (a row alone may exceed it).
std::vector<uint32_t> BgpRun::sliceEnds(const GeneralStep& step, uint32_t rows, uint64_t budget) {
  std::vector<uint64_t> starts(rows + 1);
  GSPARQL_CUDA(cudaMemcpyAsync(starts.data(), step.candidateStarts(), starts.size() * sizeof(uint64_t),
                               cudaMemcpyDeviceToHost, device_.pool().stream()));
  device_.pool().synchronize();
  std::vector<uint32_t> ends;
  for (uint32_t first = 0; first < rows;) {
    uint32_t end = first + 1;
    while (end < rows && starts[end + 1] - starts[first] <= budget) ++end;
    ends.push_back(end);
    first = end;
  }
  return ends;
}

// A finished slice of the component's rows, counted, marked, counted per vertex or appended.
void BgpRun::take(ComponentRun& run, const Level& level) {
  if (run.out.countOnly) {
    run.out.count += level.rows;
    return;
  }
  if (run.out.distinctBits) {
    launchSetBits(level.columns[run.out.distinctColumn], level.rows, run.out.distinctBits->data(),
                  device_.pool().stream());
    return;
  }
  if (run.out.vertexCounts) {
    launchCountVertices(level.columns[run.out.countedColumn], level.rows, run.out.vertexCounts->data(),
                        device_.pool().stream());
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

}  // namespace gsparql::engine::gpu
