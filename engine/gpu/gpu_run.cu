#include "engine/gpu/gpu_run.cuh"

#include <algorithm>
#include <numeric>

#include "engine/bgp/component_product.h"
#include "engine/bgp/distinct_vertices.h"
#include "engine/gpu/fused_step.cuh"
#include "storage/graph_store.h"

namespace gsparql::engine::gpu {

ComponentRun::ComponentRun(const ComponentSteps& steps, const BoundBgp& bgp, const GraphStore& store,
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

BgpRun::BgpRun(Device& device, const BoundBgp& bgp, const GraphStore& store, const std::vector<ComponentSteps>& steps)
    : device_(device), options_(device.options()), bgp_(bgp), store_(store), steps_(steps),
      streaming_(device, store, planStreaming(adjacencyUses(steps, store), device.cache().budget())) {
  device_.cache().beginQuery();
  for (const ComponentSteps& component : steps) {
    for (const GpuStep& s : component) {
      if (s.step.source == ColumnSource::Constants) {
        constantSets_.insert_or_assign(s.step.column, toDevice(device_.pool(), s.step.constants));
      }
    }
  }
}

BgpRun::~BgpRun() { device_.cache().drain(); }

IdColumns BgpRun::rows(const BgpPlan& plan, const BgpCall& options, ExecutionProfile& profile) {
  const bool direct = plan.components.size() == 1;
  BgpCall everyColumn = options;
  everyColumn.outputColumns.reset();
  const BgpCall& componentOptions = direct ? options : everyColumn;
  std::vector<IdColumns> tables;
  for (uint32_t c = 0; c < plan.components.size(); ++c) {
    tables.push_back(std::move(*componentRows(c, steps_[c], componentOptions, profile, false, 0).table));
  }
  noteRun(options, profile);
  if (direct) return std::move(tables.front());
  // A product of components (a rare cross product) multiplies rows.
  std::vector<IdRows> rows;
  for (const IdColumns& table : tables) rows.push_back(toRows(table));
  return componentProduct(std::move(rows), bgp_, options);
}

uint64_t BgpRun::count(const BgpPlan& plan, uint32_t c, const BgpCall& options, ExecutionProfile& profile) {
  BgpCall noColumns = options;
  noColumns.outputColumns = std::vector<uint32_t>{};
  const size_t leaves = plan.components[c].countedLeaves();
  const uint64_t rows = componentRows(c, steps_.front(), noColumns, profile, true, leaves).count;
  noteRun(options, profile);
  return rows;
}

uint64_t BgpRun::countDistinct(uint32_t c, const BgpCall& options, ExecutionProfile& profile,
                               uint32_t column) {
  BgpCall oneColumn = options;
  oneColumn.outputColumns = std::vector<uint32_t>{column};
  std::optional<IdColumns> light;
  if (fuseLightSteps()) light = runFused(c, steps_.front(), oneColumn, profile);
  uint64_t distinct = 0;
  if (light) {
    fusedRun_ = true;
    DistinctVertices values(store_.catalog().vertexCount);
    values.add(light->column(0));
    distinct = values.count();
  } else {
    distinct = runComponent(c, steps_.front(), options, profile, false, 0, column).count;
  }
  noteRun(options, profile);
  return distinct;
}

VertexCounts BgpRun::countByVertex(uint32_t c, const BgpCall& options, ExecutionProfile& profile, uint32_t column) {
  const uint64_t vertices = store_.catalog().vertexCount;
  options.checkMemory(VertexCounter::bytesFor(vertices), "the counts per value of a BGP's variable");
  BgpCall oneColumn = options;
  oneColumn.outputColumns = std::vector<uint32_t>{column};
  std::optional<IdColumns> light;
  if (fuseLightSteps()) light = runFused(c, steps_.front(), oneColumn, profile);
  VertexCounts counts;
  if (light) {
    fusedRun_ = true;
    VertexCounter counter(vertices);
    counter.add(light->column(0));
    counts = counter.counted();
  } else {
    counts = std::move(*runComponent(c, steps_.front(), options, profile, false, 0, std::nullopt, column).perVertex);
  }
  noteRun(options, profile);
  return counts;
}

void BgpRun::noteRun(const BgpCall& options, ExecutionProfile& profile) const {
  profile.note = runNote(options);
  profile.copiedBytes += device_.cache().bytesUploadedThisQuery();
}

// What --explain says about how the GPU ran the query.
std::string BgpRun::runNote(const BgpCall& options) const {
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
         describeLayers(layeredSteps_) + streaming_.note() +
         "adjacency uploaded for this query: " + std::to_string(device_.cache().bytesUploadedThisQuery()) + " bytes";
}

// A component's rows (or their count, its plan's `countedLeaves` counted
// as products): light queries through the fused path, the rest, or what
// outgrew it, through the general path.
ComponentRows BgpRun::componentRows(uint32_t c, const ComponentSteps& steps, const BgpCall& options,
                                    ExecutionProfile& profile, bool countOnly, size_t countedLeaves) {
  if (fuseLightSteps()) {
    if (std::optional<IdColumns> light = runFused(c, steps, options, profile)) {
      fusedRun_ = true;
      const uint64_t rows = light->rows();
      return {countOnly, rows, std::move(light)};
    }
  }
  return runComponent(c, steps, options, profile, countOnly, countedLeaves);
}

// The light-query path; nullopt when a step outgrew its capacity.
std::optional<IdColumns> BgpRun::runFused(uint32_t c, const ComponentSteps& steps, const BgpCall& options,
                                          ExecutionProfile& profile) {
  if (steps.size() > kMaxSteps) return std::nullopt;
  FusedWorkspace& ws = device_.fusedWorkspace();
  const cudaStream_t stream = device_.pool().stream();
  launchFusedReset(ws.buffers.state, stream);
  GSPARQL_CUDA(cudaEventRecord(ws.stepEnds[0], stream));
  // Events between steps cost the host a little per step: only when asked.
  auto timed = [&](size_t k) { return options.stepTimes || k + 1 == steps.size(); };
  std::vector<const uint32_t*> current(bgp_.columnCount(), nullptr);
  std::vector<bool> bound(bgp_.columnCount(), false);
  std::vector<uint32_t> earlier;
  int set = 0;
  double rowsBefore = 1;  // estimated, entering step k
  for (size_t k = 0; k < steps.size(); ++k) {
    const ColumnStep& step = steps[k].step;
    StepArgs args = prepare(step, current, bound, earlier, options);
    set = 1 - set;
    Columns columns;
    for (uint32_t col = 0; col < bgp_.columnCount(); ++col) {
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
    launchFusedStep(args, columns, static_cast<uint32_t>(columns.count), static_cast<int>(k), ws.buffers, blocks,
                    stream);
    if (timed(k)) GSPARQL_CUDA(cudaEventRecord(ws.stepEnds[k + 1], stream));
    bound[step.column] = true;
    if (step.isVertex) earlier.push_back(step.column);
  }
  FusedState state = ws.state.download().front();
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
// handing rows out; `countedColumn`: count the rows per value of that column.
ComponentRows BgpRun::runComponent(uint32_t c, const ComponentSteps& steps, const BgpCall& options,
                                   ExecutionProfile& profile, bool countOnly, size_t countedLeaves,
                                   std::optional<uint32_t> distinctColumn, std::optional<uint32_t> countedColumn) {
  // Leaves counted as products read their adjacency whole: not when streaming.
  ComponentRun run(steps, bgp_, store_, options, countOnly, streaming_.any() ? 0 : countedLeaves);
  const uint64_t words = (store_.catalog().vertexCount + 31) / 32;
  if (distinctColumn) {
    run.out.distinctColumn = *distinctColumn;
    run.out.distinctBits.emplace(device_.pool(), words);
    GSPARQL_CUDA(cudaMemsetAsync(run.out.distinctBits->data(), 0, run.out.distinctBits->bytes(),
                                 device_.pool().stream()));
  }
  if (countedColumn) {
    run.out.countedColumn = *countedColumn;
    run.out.vertexCounts.emplace(device_.pool(), store_.catalog().vertexCount);
    GSPARQL_CUDA(cudaMemsetAsync(run.out.vertexCounts->data(), 0, run.out.vertexCounts->bytes(),
                                 device_.pool().stream()));
  }
  descend(run, Level{{}, std::vector<const uint32_t*>(bgp_.columnCount(), nullptr), 1}, 0);
  profile.countedLeaves += run.steps.size() - run.leavesFrom;
  if (run.out.distinctBits) {
    run.out.count = countSetBits(device_.pool(), run.out.distinctBits->data(), words);
    run.out.distinctBits.reset();
  } else if (run.out.vertexCounts) {
    run.out.perVertex = VertexCounter::counted(run.out.vertexCounts->download());
    run.out.vertexCounts.reset();
  } else if (!run.out.countOnly && !run.out.table) {
    run.out.table = IdColumns(options.outputColumns ? static_cast<uint32_t>(options.outputColumns->size())
                                                     : bgp_.columnCount());
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
bool BgpRun::fuseLightSteps() const {
  return options_.fuseLightSteps && !options_.plainCsrLookups && !options_.twoPassJoin &&
         !options_.naiveSetOperations && !streaming_.any();
}

// The columns the caller reads, on the host (unbound ones: 0): packed one
// after another on the device, brought over in one copy.
IdColumns BgpRun::download(const std::vector<const uint32_t*>& bound, uint32_t rows, const BgpCall& options) {
  std::vector<uint32_t> wanted(bound.size());
  std::iota(wanted.begin(), wanted.end(), 0u);
  if (options.outputColumns) wanted = *options.outputColumns;
  Columns columns;
  for (uint32_t c : wanted) columns.in[columns.count++] = bound[c];
  IdColumns out(static_cast<uint32_t>(wanted.size()));
  out.setRows(rows);
  if (wanted.empty() || rows == 0) return out;
  DeviceArray<uint32_t> packed(device_.pool(), uint64_t{rows} * wanted.size());
  launchPackColumns(columns, rows, packed.data(), device_.pool().stream());
  const std::vector<uint32_t> host = packed.download();
  for (uint32_t c = 0; c < wanted.size(); ++c) {
    const auto from = host.begin() + static_cast<std::ptrdiff_t>(uint64_t{c} * rows);
    out.column(c).assign(from, from + rows);
  }
  return out;
}

// Candidates must have every edge to a vertex bound later: the cached key
// bitsets of those edges, each probed by the kernels.
void BgpRun::setCandidateSets(StepArgs& s, const ColumnStep& step, const std::vector<bool>& boundAfter) {
  if (!step.isVertex) return;
  const uint32_t v = step.column;
  for (const auto& e : bgp_.edges) {
    if ((e.from != v && e.to != v) || e.from == e.to || e.predicateIsVariable) continue;
    if (boundAfter[e.from == v ? e.to : e.from] || s.candidateSetCount == kMaxChecks) continue;
    const auto direction = e.from == v ? pcsr::Direction::Out : pcsr::Direction::In;
    if (streaming_.streams(direction, e.predicate)) continue;  // only a filter: not worth a whole upload
    s.candidateSets[s.candidateSetCount++] = device_.cache().keyBits(store_, direction, e.predicate);
  }
}

// A step's driver adjacency, unless streamed: then each key range in turn (runStep).
DeviceAdjacency BgpRun::wholeDriver(const ColumnStep& step) {
  return streamsDriver(step) ? DeviceAdjacency{} : device_.cache().get(store_, step.direction, step.predicate);
}

bool BgpRun::streamsDriver(const ColumnStep& step) const {
  return (step.source == ColumnSource::PredicateKeys || step.source == ColumnSource::Neighbours) &&
         streaming_.streams(step.direction, step.predicate);
}

void BgpRun::setSource(StepArgs& s, const ColumnStep& step, const std::vector<const uint32_t*>& columns) {
  if (step.drawsFromAllPredicates()) s.all = device_.cache().allPredicates(store_, step.direction, bgp_);
  switch (step.source) {
    case ColumnSource::Constant:
      s.source = Source::Constant;
      s.constant = step.constant;
      break;
    case ColumnSource::Constants: {  // drawn like a predicate's keys: one sorted list for every row
      const DeviceArray<uint32_t>& set = constantSets_.at(step.column);
      s.source = Source::Keys;
      s.driver.keys = set.data();
      s.driver.keyCount = static_cast<uint32_t>(set.size());
      break;
    }
    case ColumnSource::PredicateKeys:
      s.source = Source::Keys;
      s.driver = wholeDriver(step);
      break;
    case ColumnSource::RowPredicateKeys:
      s.source = Source::RowPredicateKeys;
      s.driverColumn = columns[step.predicate];
      break;
    case ColumnSource::Neighbours:
      s.source = Source::Neighbours;
      s.driver = wholeDriver(step);
      s.driverColumn = columns[step.from];
      break;
    case ColumnSource::DistinctNeighbours:
      s.source = Source::DistinctNeighbours;
      s.driverColumn = columns[step.from];
      break;
    case ColumnSource::AllVertices:
      s.source = Source::AllVertices;
      s.vertexCount = static_cast<uint32_t>(store_.catalog().vertexCount);
      break;
    case ColumnSource::PredicatesBetween:
      s.source = Source::PredicatesBetween;
      s.driverColumn = columns[step.from];
      s.targetColumn = columns[step.to];
      break;
  }
}

StepArgs BgpRun::argsFor(const ColumnStep& step, const std::vector<const uint32_t*>& columns,
                         const std::vector<uint32_t>& earlier, const BgpCall& options) {
  GraphCache& cache = device_.cache();
  auto column = [&](uint32_t c) { return c == kCandidate ? nullptr : columns[c]; };
  StepArgs s;
  s.plainCsr = options_.plainCsrLookups;
  s.injective = options.injective && step.isVertex;
  setSource(s, step, columns);
  for (const AdjacencyProbe& p : step.adjacencyProbes) {
    if (streaming_.streams(p.direction, p.predicate)) continue;  // checked after the step (checkStreamed)
    s.checks[s.checkCount++] = {cache.get(store_, p.direction, p.predicate), column(p.from)};
  }
  for (const VariablePredicateProbe& p : step.pairProbes) {
    s.pairs[s.pairCount++] = {cache.allPredicates(store_, p.direction, bgp_), column(p.from), column(p.predicate),
                              column(p.to)};
  }
  for (const PredicateVertexEquality& p : step.predicateVertexProbes) {
    s.predicateVertices[s.predicateVertexCount++] = {column(p.predicate), column(p.vertex)};
  }
  if (s.predicateVertexCount > 0) s.predicateVertexIds = cache.predicateVertexIds(store_);
  if (step.isVertex) {
    for (uint32_t v : earlier) s.earlier[s.earlierCount++] = columns[v];
  }
  return s;
}

// The step's arguments, with the candidate filter of a vertex step.
StepArgs BgpRun::prepare(const ColumnStep& step, const std::vector<const uint32_t*>& columns,
                         const std::vector<bool>& bound, const std::vector<uint32_t>& earlier,
                         const BgpCall& options) {
  std::vector<bool> boundAfter = bound;
  boundAfter[step.column] = true;
  StepArgs args = argsFor(step, columns, earlier, options);
  setCandidateSets(args, step, boundAfter);
  return args;
}

}  // namespace gsparql::engine::gpu
