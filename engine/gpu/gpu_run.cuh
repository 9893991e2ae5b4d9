#pragma once
// One call's run of a BGP on a device (gpu_device.cuh): the state of that
// call alone (what it streams, the sets of constants it uploaded, what its
// steps did, for EXPLAIN) and the paths that find its rows. Light queries
// run fused, one kernel per step (gpu_run.cu); the rest, or what outgrew
// the light path, step by step, depth-first over slices of rows where
// memory requires (general_path.cu).
//
// The executor makes one on the stack of each call, for that call: it
// begins a query on the device's cache when made and waits for the query's
// uploads when it goes, so no call's state outlives it and nothing ties a
// cursor to a thread.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/bgp/executor.h"
#include "engine/bgp/vertex_counts.h"
#include "engine/gpu/gpu_device.cuh"
#include "engine/gpu/gpu_steps.h"
#include "engine/gpu/join_kernels.cuh"
#include "engine/gpu/streamed_adjacency.cuh"

namespace gsparql::engine::gpu {

// A component's intermediate table on the device: one column per query
// column (null where unbound), in arrays it owns or, for a slice of rows,
// in its parent's.
struct Level {
  std::vector<DeviceArray<uint32_t>> owned;
  std::vector<const uint32_t*> columns;
  uint32_t rows = 1;
};

// Where a component's rows go: counted, marked (COUNT(DISTINCT ?v): the
// values of one column as bits over the vertices, counted at the end),
// counted per value of one column (GROUP BY ?v COUNT(*): a counter per
// vertex, read back at the end), or downloaded (the columns the caller
// reads) and appended in order.
struct ComponentRows {
  bool countOnly = false;
  uint64_t count = 0;
  std::optional<IdColumns> table;
  std::optional<DeviceArray<uint32_t>> distinctBits;
  uint32_t distinctColumn = 0;
  std::optional<DeviceArray<uint64_t>> vertexCounts;
  uint32_t countedColumn = 0;
  std::optional<VertexCounts> perVertex;  // what vertexCounts held
};

// One component's depth-first run: its steps, what each step sees bound,
// and the rows and time each step accounted for over all slices.
struct ComponentRun {
  const ComponentSteps& steps;
  const BoundBgp& bgp;
  const GraphStore& store;
  const BgpCall& options;
  std::vector<std::vector<bool>> boundBefore;      // per step
  std::vector<std::vector<uint32_t>> earlierBefore;  // vertex columns bound before each step
  std::vector<uint64_t> rows;
  std::vector<double> milliseconds;
  std::vector<bool> reached;
  std::vector<std::optional<StepLayers>> layers;  // rows per load-balance layer, summed over slices
  ComponentRows out;
  size_t leavesFrom;  // the first of a count's leaves counted as products, or steps.size()

  ComponentRun(const ComponentSteps& steps, const BoundBgp& bgp, const GraphStore& store,
               const BgpCall& options, bool countOnly, size_t countedLeaves);
};

class BgpRun {
 public:
  // Begins a query on the device that will run `steps` (of every component
  // of the BGP, or of the one component counted): plans what it streams and
  // uploads the sets of constants its vertices are limited to.
  BgpRun(Device& device, const BoundBgp& bgp, const GraphStore& store, const std::vector<ComponentSteps>& steps);
  // Waits for the uploads started for the query: before its snapshot may go.
  ~BgpRun();
  BgpRun(const BgpRun&) = delete;
  BgpRun& operator=(const BgpRun&) = delete;

  // The BGP's rows (the run made for the steps of each component of
  // `plan`): one component's table is the result, so only the columns read leave
  // the GPU; several are joined on the host.
  IdColumns rows(const BgpPlan& plan, const BgpCall& options, ExecutionProfile& profile);
  // Counted on the GPU in bounded memory: the last step's survivors are
  // counted, never written, and steps too large for the memory left run
  // depth-first over slices of rows. `c`: the component of `plan` whose
  // steps the run was made for (and the component its profile names).
  uint64_t count(const BgpPlan& plan, uint32_t c, const BgpCall& options, ExecutionProfile& profile);
  // Marked on the GPU in a bitset over the vertices as the rows are found,
  // slice by slice, and never written out; light queries' rows (the fused
  // path) come down as one column and are marked on the host.
  uint64_t countDistinct(uint32_t c, const BgpCall& options, ExecutionProfile& profile, uint32_t column);
  // The rows per value of `column`, counted on the GPU in a counter per
  // vertex as the rows are found, slice by slice, and never written out;
  // light queries' rows come down as one column and are counted on the host.
  VertexCounts countByVertex(uint32_t c, const BgpCall& options, ExecutionProfile& profile, uint32_t column);

 private:
  // gpu_run.cu: the call, the light path and the steps' arguments.
  void noteRun(const BgpCall& options, ExecutionProfile& profile) const;
  std::string runNote(const BgpCall& options) const;
  ComponentRows componentRows(uint32_t c, const ComponentSteps& steps, const BgpCall& options,
                              ExecutionProfile& profile, bool countOnly, size_t countedLeaves);
  std::optional<IdColumns> runFused(uint32_t c, const ComponentSteps& steps, const BgpCall& options,
                                    ExecutionProfile& profile);
  ComponentRows runComponent(uint32_t c, const ComponentSteps& steps, const BgpCall& options,
                             ExecutionProfile& profile, bool countOnly, size_t countedLeaves,
                             std::optional<uint32_t> distinctColumn = std::nullopt,
                             std::optional<uint32_t> countedColumn = std::nullopt);
  bool fuseLightSteps() const;
  IdColumns download(const std::vector<const uint32_t*>& bound, uint32_t rows, const BgpCall& options);
  void setCandidateSets(StepArgs& s, const ColumnStep& step, const std::vector<bool>& boundAfter);
  DeviceAdjacency wholeDriver(const ColumnStep& step);
  bool streamsDriver(const ColumnStep& step) const;
  void setSource(StepArgs& s, const ColumnStep& step, const std::vector<const uint32_t*>& columns);
  StepArgs argsFor(const ColumnStep& step, const std::vector<const uint32_t*>& columns,
                   const std::vector<uint32_t>& earlier, const BgpCall& options);
  StepArgs prepare(const ColumnStep& step, const std::vector<const uint32_t*>& columns,
                   const std::vector<bool>& bound, const std::vector<uint32_t>& earlier,
                   const BgpCall& options);

  // general_path.cu: steps one by one, depth-first over slices where needed.
  void descend(ComponentRun& run, Level level, size_t k);
  void runStep(ComponentRun& run, Level& level, size_t k, const DeviceAdjacency* driverRange, bool freeLevel);
  Columns nextColumns(const std::vector<const uint32_t*>& in, uint32_t vertex, Level& next);
  bool streamsAProbe(const ColumnStep& step) const;
  void prefetchFirstRanges(const ComponentRun& run, const Level& level, size_t k);
  Level checkStreamed(const ColumnStep& step, Level next);
  void countLeaves(ComponentRun& run, const Level& level, size_t k);
  std::vector<uint32_t> sliceEnds(const GeneralStep& step, uint32_t rows, uint64_t budget);
  void take(ComponentRun& run, const Level& level);

  Device& device_;
  const GpuOptions& options_;  // the device's
  const BoundBgp& bgp_;
  const GraphStore& store_;
  const std::vector<ComponentSteps>& steps_;  // the caller's, per component
  StreamedAdjacency streaming_;
  std::map<uint32_t, DeviceArray<uint32_t>> constantSets_;  // of the vertices limited to sets, by column
  uint32_t slicedSteps_ = 0;
  size_t leavesCounted_ = 0;  // steps counted as products
  bool fusedRun_ = false;     // the fused path ran
  uint32_t largestGrid_ = 1;  // blocks of the largest fused step
  std::vector<StepLayers> layeredSteps_;  // general-path steps, for the note
};

}  // namespace gsparql::engine::gpu
