#pragma once
// The general path of a join step (join_kernels.cu): sizing with a histogram
// of row work, filtering through the four load-balance layers
// (load_balance.h), Prealloc-Combine or the two-pass ablation, and link;
// plus the small kernels the executor needs around it.
#include <cuda_runtime.h>

#include <optional>

#include "engine/gpu/device_memory.cuh"
#include "engine/gpu/join_step.cuh"
#include "engine/gpu/load_balance.h"

namespace gsparql::engine::gpu {

// Candidates [first, first + length) of a row's list, filtered by one block.
struct Run {
  uint32_t row, first, length;
};

// A step's rows sorted into the layers. The queues are filled with atomics,
// so their order varies from run to run; where each row's survivors land
// does not.
struct LayerQueues {
  uint32_t* warpRows = nullptr;
  Run* pooledRuns = nullptr;
  Run* blockRuns = nullptr;    // whole-block rows, and the pieces of split rows
  uint32_t* queued = nullptr;  // on the device: entries in warpRows, pooledRuns, blockRuns
};

// A step's rows and their survivor counts, one per chunk of kChunk
// candidates (chunk t belongs to the row r with chunkStarts[r] <= t <
// chunkStarts[r + 1]). Whoever filters a run of a row's chunks writes its
// survivors in list order from the run's start and its count in the run's
// first chunk; the other chunks keep a zero, so one prefix sum over the
// counts places every run in the new table.
struct FilterLaunch {
  uint32_t rows = 0;
  uint32_t chunks = 0;
  const List* lists = nullptr;
  const uint32_t* chunkStarts = nullptr;
  const uint64_t* candidateStarts = nullptr;  // Prealloc-Combine: each row's segment of the buffer
  const uint32_t* outStarts = nullptr;        // two-pass write: each run's place in the new column
  uint32_t* out = nullptr;
  uint32_t* counts = nullptr;
};

// Sorts `rows` rows by their list sizes into `q`, sized by layerSizes.
void launchBinRows(uint32_t rows, const List* lists, const Thresholds& t, const LayerQueues& q, cudaStream_t st);

// One join step on the general path, in the order the executor drives it.
class GeneralStep {
 public:
  // Sizes every row and builds the histogram of row work; one host
  // synchronisation reads both totals and the histogram.
  GeneralStep(DevicePool& pool, const StepArgs& s, uint32_t rows);
  GeneralStep(const GeneralStep&) = delete;
  GeneralStep& operator=(const GeneralStep&) = delete;

  uint64_t candidates() const { return candidates_; }
  const uint64_t* candidateStarts() const { return f_.candidateStarts; }
  const WorkHistogram& histogram() const { return histogram_; }

  // Filters the candidates through the layers of `t` (with `naive`, one
  // thread per chunk instead); with `twoPass` this pass only counts. Returns
  // the new row count, read in a second synchronisation.
  uint32_t filter(const Thresholds& t, bool twoPass, bool naive);
  // Writes the new table: the bound columns of `columns`, and the new
  // vertex's column columns.out[columns.count] (with twoPass, by a second
  // filter pass that writes in place).
  void link(const Columns& columns);
  // After a filter that only counted: each row's survivors, set into
  // products[r] (`first`) or multiplied into it, saturating at UINT64_MAX.
  void multiplyRowCounts(uint64_t* products, bool first) const;

 private:
  void binRows(const Thresholds& t);
  void launchFilters(bool write);

  DevicePool& pool_;
  StepArgs s_;
  Workspace sizing_;
  uint32_t* tallies_ = nullptr;  // the histogram, then the three queues' entry counts
  FilterLaunch f_;
  uint64_t candidates_ = 0;
  WorkHistogram histogram_{};
  bool twoPass_ = false, naive_ = false;
  Thresholds thresholds_;
  LayerSizes sizes_;
  LayerQueues queues_;
  std::optional<Workspace> counting_, queueSpace_;
  uint32_t* outStarts_ = nullptr;
  DeviceArray<uint32_t> survivors_;
  uint32_t newRows_ = 0;
};

// The device this process runs on, queried once.
DeviceShape deviceShape();

void launchSetBits(const uint32_t* keys, uint32_t n, uint32_t* bits, cudaStream_t st);
// counts[keys[i]] += 1 for i < n.
void launchCountVertices(const uint32_t* keys, uint32_t n, uint64_t* counts, cudaStream_t st);
// The sum of values[0, n), saturating at UINT64_MAX; one host synchronisation.
uint64_t saturatingSum(DevicePool& pool, const uint64_t* values, uint32_t n);
// The bits set in words[0, n); one host synchronisation.
uint64_t countSetBits(DevicePool& pool, const uint32_t* words, uint64_t n);
// A check whose adjacency is streamed, one key range at a time: flags[r] is
// set where to[r] is among from[r]'s neighbours in `range`.
void launchMarkEdges(const DeviceAdjacency& range, const uint32_t* from, const uint32_t* to, uint32_t rows,
                     uint32_t* flags, cudaStream_t st);
// The place of each flagged row among them (flags: rows + 1 entries, the last
// zero); returns how many are flagged, in one host synchronisation.
uint32_t flaggedPositions(DevicePool& pool, const uint32_t* flags, uint32_t rows, uint32_t* positions);
// Copies the flagged rows of columns.in[0..count) to their places in columns.out.
void launchKeepRows(const uint32_t* flags, const uint32_t* positions, uint32_t rows, const Columns& columns,
                    cudaStream_t st);
// columns.in[0..count) (null: a column of zeros) one after another in `out`,
// so that one copy brings them to the host.
void launchPackColumns(const Columns& columns, uint32_t rows, uint32_t* out, cudaStream_t st);

}  // namespace gsparql::engine::gpu
