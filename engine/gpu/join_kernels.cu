#include "engine/gpu/join_kernels.cuh"

#include <algorithm>
#include <cstdint>

#include "engine/gpu/device_scan.cuh"
#include "engine/gpu/step_device.cuh"

namespace gsparql::engine::gpu {
namespace {

constexpr uint32_t kWarps = kBlockThreads / 32;
constexpr uint32_t kWarpStage = 512;         // shared words per warp for its row's probe lists
constexpr uint32_t kBlockStage = 4096;       // shared words per block for its runs' probe lists
constexpr uint64_t kStagePerCandidate = 32;  // see planStaging
constexpr uint32_t kNotStaged = 0xFFFFFFFFu;
constexpr int kTallies = kWorkBins + 3;      // the histogram, then the three queues' entry counts

// Split rows are cut every `block` candidates (a power of two of at least
// kBlockThreads), so each piece starts at a chunk: its count has a slot.
static_assert(kChunk <= kBlockThreads && (kChunk & (kChunk - 1)) == 0);

__device__ uint32_t lanesBelow(uint32_t lane) { return (1u << lane) - 1; }

// Per row: its candidate list, the list's size and chunks (and the zero past
// the last row that the prefix sums turn into totals), and the row's bin in
// the histogram of row work, counted in shared memory first.
__global__ void sizeRows(StepArgs s, uint32_t rows, List* lists, uint64_t* sizes, uint32_t* chunks,
                         uint32_t* histogram) {
  __shared__ uint32_t bins[kWorkBins];
  for (uint32_t b = threadIdx.x; b < kWorkBins; b += blockDim.x) bins[b] = 0;
  __syncthreads();
  const uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r == rows) sizes[r] = 0, chunks[r] = 0;
  if (r < rows) {
    const List list = candidatesOf(s, r);
    lists[r] = list;
    sizes[r] = list.size;
    chunks[r] = (list.size + kChunk - 1) / kChunk;
    if (list.size > 0) atomicAdd(&bins[workBin(list.size)], 1u);
  }
  __syncthreads();
  for (uint32_t b = threadIdx.x; b < kWorkBins; b += blockDim.x) {
    if (bins[b] > 0) atomicAdd(&histogram[b], bins[b]);
  }
}

// Reserves n entries of a queue for each lane, with one atomic per warp.
__device__ uint32_t reserve(uint32_t* queued, uint32_t n) {
  const uint32_t lane = threadIdx.x % 32;
  uint32_t inclusive = n;
  for (int d = 1; d < 32; d *= 2) {
    const uint32_t up = __shfl_up_sync(kFullMask, inclusive, d);
    if (lane >= d) inclusive += up;
  }
  uint32_t base = 0;
  if (lane == 31 && inclusive > 0) base = atomicAdd(queued, inclusive);
  return __shfl_sync(kFullMask, base, 31) + inclusive - n;
}

// Appends each row with candidates to its layer's queue; a split row's
// pieces are written by its whole warp.
__global__ void binRows(uint32_t rows, const List* lists, Thresholds t, LayerQueues q) {
  const uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t work = r < rows ? lists[r].size : 0;
  const Layer layer = layerOf(work, t);
  const bool warp = work > 0 && layer == Layer::Warp, pooled = layer == Layer::Pooled;
  const uint32_t pieces = layer >= Layer::Block ? piecesOf(work, t) : 0;
  const uint32_t atWarp = reserve(&q.queued[0], warp);
  const uint32_t atPooled = reserve(&q.queued[1], pooled);
  const uint32_t atBlock = reserve(&q.queued[2], pieces);
  if (warp) q.warpRows[atWarp] = r;
  if (pooled) q.pooledRuns[atPooled] = {r, 0, work};
  for (uint32_t splitting = __ballot_sync(kFullMask, pieces > 0); splitting != 0; splitting &= splitting - 1) {
    const int owner = __ffs(splitting) - 1;
    const uint32_t row = __shfl_sync(kFullMask, r, owner), at = __shfl_sync(kFullMask, atBlock, owner);
    const uint32_t n = __shfl_sync(kFullMask, pieces, owner), size = __shfl_sync(kFullMask, work, owner);
    for (uint32_t k = threadIdx.x % 32; k < n; k += 32) {
      q.blockRuns[at + k] = {row, k * t.block, min(t.block, size - k * t.block)};
    }
  }
}

// Where a row's probe lists go in shared memory: word offsets, or kNotStaged.
struct Staging {
  uint32_t at[kMaxChecks];
};

// A bound check's list is staged when it fits in what is left of `capacity`
// and holds at most kStagePerCandidate entries per candidate it serves:
// copying costs one 128-byte line per 32 entries, while a binary search in
// global memory costs each candidate several dependent lines. Self-loop
// checks have no list of the row's (they are looked up per candidate).
__device__ Staging planStaging(const StepArgs& s, const RowProbes& p, uint32_t work, uint32_t capacity,
                               uint32_t& used) {
  Staging plan;
  for (int k = 0; k < s.checkCount; ++k) {
    const uint32_t size = p.lists[k].size;
    const bool staged = s.checks[k].boundColumn && size <= capacity - used && size <= kStagePerCandidate * work;
    plan.at[k] = staged ? used : kNotStaged;
    if (staged) used += size;
  }
  return plan;
}

// `threads` threads copy the planned lists, consecutive threads taking
// consecutive words: a warp moves one 128-byte line at a time.
__device__ void copyStaged(const RowProbes& p, const Staging& plan, int checks, uint32_t* stage, uint32_t thread,
                           uint32_t threads) {
  for (int k = 0; k < checks; ++k) {
    if (plan.at[k] == kNotStaged) continue;
    for (uint32_t j = thread; j < p.lists[k].size; j += threads) stage[plan.at[k] + j] = p.lists[k].data[j];
  }
}

// Points the row's probes at their staged copies; passes() then searches
// shared memory.
__device__ void useStaged(RowProbes& p, const Staging& plan, int checks, const uint32_t* stage) {
  for (int k = 0; k < checks; ++k) {
    if (plan.at[k] != kNotStaged) p.lists[k].data = stage + plan.at[k];
  }
}

__device__ uint32_t slotOf(const FilterLaunch& f, uint32_t row, uint32_t first) {
  return f.chunkStarts[row] + first / kChunk;
}

// Where a run's first survivor goes: its place in the row's segment of the
// survivor buffer, or (second pass of two) in the new column.
__device__ uint64_t baseOf(const FilterLaunch& f, uint32_t row, uint32_t first) {
  return f.outStarts ? f.outStarts[slotOf(f, row, first)] : f.candidateStarts[row] + first;
}

// A warp's survivors, gathered in its shared memory (64 words) and written
// 32 at a time: one 128-byte line per write instead of a partial one per round.
struct WarpWriter {
  uint32_t* cache;
  uint32_t* out;
  uint32_t filled = 0, written = 0;

  __device__ void put(bool ok, uint32_t c, uint32_t ballot, uint32_t lane) {
    if (ok) cache[filled + __popc(ballot & lanesBelow(lane))] = c;
    filled += __popc(ballot);
    __syncwarp();
    if (filled < 32) return;
    out[written + lane] = cache[lane];
    const uint32_t rest = filled - 32;
    const uint32_t carried = lane < rest ? cache[32 + lane] : 0;
    __syncwarp();
    if (lane < rest) cache[lane] = carried;
    __syncwarp();
    filled = rest;
    written += 32;
  }
  __device__ void finish(uint32_t lane) const {
    if (lane < filled) out[written + lane] = cache[lane];
  }
};

// Warp layer: one warp per row. The row's probe lists are looked up once
// and, when short, staged in the warp's shared memory; each lane takes one
// candidate per round (the list read 128 bytes at a time) and runs the
// step's whole test, passes(); survivors go through the warp's write cache.
template <bool Write>
__global__ void __launch_bounds__(kBlockThreads) filterRows(StepArgs s, FilterLaunch f, const uint32_t* queue,
                                                           const uint32_t* queued) {
  __shared__ uint32_t stage[kWarps][kWarpStage];
  __shared__ uint32_t cache[kWarps][64];
  const uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const uint32_t entry = blockIdx.x * kWarps + warp;
  if (entry >= *queued) return;
  const uint32_t row = queue[entry];
  const List list = f.lists[row];
  RowProbes probes = probesOf(s, row);
  uint32_t used = 0;
  const Staging plan = planStaging(s, probes, list.size, kWarpStage, used);
  copyStaged(probes, plan, s.checkCount, stage[warp], lane, 32);
  __syncwarp();
  useStaged(probes, plan, s.checkCount, stage[warp]);
  WarpWriter writer{cache[warp], Write ? f.out + baseOf(f, row, 0) : nullptr};
  uint32_t kept = 0;
  for (uint32_t i = 0; i < list.size; i += 32) {
    const bool valid = i + lane < list.size;
    const uint32_t c = valid ? candidateAt(s, list, i + lane) : 0;
    const bool ok = valid && passes(s, probes, row, c);
    const uint32_t ballot = __ballot_sync(kFullMask, ok);
    if (Write) writer.put(ok, c, ballot, lane);
    kept += __popc(ballot);
  }
  if (Write) writer.finish(lane);
  if (lane == 0) f.counts[slotOf(f, row, 0)] = kept;
}

// The runs one block filters together, in shared memory.
struct Pool {
  Run runs[kMaxPoolRuns];
  alignas(16) unsigned char probeBytes[kMaxPoolRuns * sizeof(RowProbes)];  // raw: RowProbes has initialisers
  Staging plans[kMaxPoolRuns];
  uint64_t bases[kMaxPoolRuns];       // baseOf each run
  uint32_t starts[kMaxPoolRuns + 1];  // each run's first candidate in the pool
  uint32_t kept[kMaxPoolRuns];        // survivors so far
  uint32_t warpBallots[kWarps];       // this round's survivors, a bit per thread
  uint32_t stage[kBlockStage];

  __device__ RowProbes* probes() { return reinterpret_cast<RowProbes*>(probeBytes); }
};

// Reads the block's runs, looks up their probes (one thread per run), and
// stages the short probe lists in shared memory (planned by one thread,
// copied by all). Returns the pool's candidates.
__device__ uint32_t loadPool(const StepArgs& s, const FilterLaunch& f, const Run* queue, uint32_t n, Pool& pool) {
  if (threadIdx.x < n) {
    const Run run = queue[threadIdx.x];
    pool.runs[threadIdx.x] = run;
    pool.probes()[threadIdx.x] = probesOf(s, run.row);
    pool.bases[threadIdx.x] = baseOf(f, run.row, run.first);
    pool.kept[threadIdx.x] = 0;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    uint32_t used = 0;
    pool.starts[0] = 0;
    for (uint32_t i = 0; i < n; ++i) {
      pool.plans[i] = planStaging(s, pool.probes()[i], pool.runs[i].length, kBlockStage, used);
      pool.starts[i + 1] = pool.starts[i] + pool.runs[i].length;
    }
  }
  __syncthreads();
  for (uint32_t i = 0; i < n; ++i) {
    copyStaged(pool.probes()[i], pool.plans[i], s.checkCount, pool.stage, threadIdx.x, kBlockThreads);
  }
  __syncthreads();
  if (threadIdx.x < n) useStaged(pool.probes()[threadIdx.x], pool.plans[threadIdx.x], s.checkCount, pool.stage);
  __syncthreads();
  return pool.starts[n];
}

// Survivors of the block's round before thread t, from the warps' ballots.
__device__ uint32_t survivorsBefore(const uint32_t* warpBallots, uint32_t t) {
  uint32_t before = __popc(warpBallots[t / 32] & lanesBelow(t % 32));
  for (uint32_t w = 0; w < t / 32; ++w) before += __popc(warpBallots[w]);
  return before;
}

// One round: each thread takes the pool's candidate base + threadIdx.x.
// Survivors are compacted per run across the whole block: a survivor's place
// in its run is the run's survivors of earlier rounds plus the survivors
// between the run's first thread of this round and itself (block-wide
// prefixes from the warps' ballots, which every thread reads, so no thread
// writes shared state that another reads in the same phase).
template <bool Write>
__device__ void filterRound(const StepArgs& s, const FilterLaunch& f, Pool& pool, uint32_t n, uint32_t base,
                            uint32_t candidates) {
  const uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const uint32_t i = base + threadIdx.x;
  const bool valid = i < candidates;
  const uint32_t run = valid ? segmentOf(pool.starts, n, i) : 0;
  const Run& r = pool.runs[run];
  const uint32_t c = valid ? candidateAt(s, f.lists[r.row], r.first + (i - pool.starts[run])) : 0;
  const bool ok = valid && passes(s, pool.probes()[run], r.row, c);
  const uint32_t ballot = __ballot_sync(kFullMask, ok);
  if (lane == 0) pool.warpBallots[warp] = ballot;
  __syncthreads();
  const uint32_t runFirstThread = valid ? max(pool.starts[run], base) - base : 0;
  const uint32_t at = pool.kept[run] + survivorsBefore(pool.warpBallots, threadIdx.x) -
                      survivorsBefore(pool.warpBallots, runFirstThread);
  if (Write && ok) f.out[pool.bases[run] + at] = c;
  const bool closes = valid && (threadIdx.x == kBlockThreads - 1 || i + 1 == pool.starts[run + 1]);
  __syncthreads();  // every thread has read kept[run] and the ballots
  if (closes) pool.kept[run] = at + ok;
  __syncthreads();
}

// Pooled, block and split layers: block b filters the runs
// [b * runsPerBlock, (b + 1) * runsPerBlock) of `queue` as one stream of
// candidates, kBlockThreads per round, so a pool's short rows share the
// block's warps and a long row or piece keeps all of them busy.
template <bool Write>
__global__ void __launch_bounds__(kBlockThreads) filterRuns(StepArgs s, FilterLaunch f, const Run* queue,
                                                           const uint32_t* queued, uint32_t runsPerBlock) {
  __shared__ Pool pool;
  const uint32_t first = blockIdx.x * runsPerBlock, total = *queued;
  if (first >= total) return;
  const uint32_t n = min(runsPerBlock, total - first);
  const uint32_t candidates = loadPool(s, f, queue + first, n, pool);
  for (uint32_t base = 0; base < candidates; base += kBlockThreads) filterRound<Write>(s, f, pool, n, base, candidates);
  if (threadIdx.x < n) {
    const Run& run = pool.runs[threadIdx.x];
    f.counts[slotOf(f, run.row, run.first)] = pool.kept[threadIdx.x];
  }
}

struct ChunkTask {
  uint32_t row, start, length;
};

__device__ ChunkTask taskOf(const FilterLaunch& f, uint32_t chunk) {
  uint32_t r = segmentOf(f.chunkStarts, f.rows, chunk);
  uint32_t start = (chunk - f.chunkStarts[r]) * kChunk;
  return {r, start, min(kChunk, f.lists[r].size - start)};
}

// Ablation: one thread per chunk, probing with linear merges.
template <bool Write>
__global__ void filterThread(StepArgs s, FilterLaunch f) {
  const uint32_t chunk = blockIdx.x * blockDim.x + threadIdx.x;
  if (chunk >= f.chunks) return;
  const ChunkTask task = taskOf(f, chunk);
  const List list = f.lists[task.row];
  const RowProbes probes = probesOf(s, task.row);
  uint32_t cursor[kMaxChecks] = {};
  const uint64_t base = baseOf(f, task.row, task.start);
  uint32_t kept = 0;
  for (uint32_t i = 0; i < task.length; ++i) {
    uint32_t c = candidateAt(s, list, task.start + i);
    bool ok = inCandidateSets(s, c) && !(s.injective && usedEarlier(s, task.row, c));
    for (int k = 0; ok && k < s.checkCount; ++k) {
      if (!s.checks[k].boundColumn) {
        ok = containsSorted(lookup(s.checks[k].adjacency, c, s.plainCsr), c);
        continue;
      }
      const List& probe = probes.lists[k];
      while (cursor[k] < probe.size && probe.data[cursor[k]] < c) ++cursor[k];
      ok = cursor[k] < probe.size && probe.data[cursor[k]] == c;
    }
    ok = ok && passesPredicateProbes(s, task.row, c);
    if (ok && Write) f.out[base + kept] = c;
    kept += ok;
  }
  f.counts[chunk] = kept;
}

// Writes the new table, one thread per new row: the chunk whose run holds
// it (the last with outStarts <= o), that chunk's row, and the survivor.
__global__ void linkRows(Columns columns, uint32_t newColumn, uint32_t newRows, FilterLaunch f,
                         const uint32_t* outStarts, const uint32_t* survivors) {
  const uint32_t o = blockIdx.x * blockDim.x + threadIdx.x;
  if (o >= newRows) return;
  const uint32_t chunk = segmentOf(outStarts, f.chunks, o);
  const uint32_t row = segmentOf(f.chunkStarts, f.rows, chunk);
  for (int c = 0; c < columns.count; ++c) columns.out[c][o] = columns.in[c][row];
  if (survivors) {
    const uint64_t first = f.candidateStarts[row] + uint64_t{chunk - f.chunkStarts[row]} * kChunk;
    columns.out[newColumn][o] = survivors[first + (o - outStarts[chunk])];
  }
}

__global__ void setBits(const uint32_t* keys, uint32_t n, uint32_t* bits) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicOr(&bits[keys[i] >> 5], 1u << (keys[i] & 31));
}

// One row counted per key (64-bit counters: a popular vertex's rows may pass 2^32).
__global__ void countVertices(const uint32_t* keys, uint32_t n, unsigned long long* counts) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&counts[keys[i]], 1ull);
}

__global__ void packColumns(Columns columns, uint32_t rows, uint32_t* out) {
  const uint32_t width = static_cast<uint32_t>(columns.count);
  uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  if (rows == 0 || i >= static_cast<uint64_t>(rows) * width) return;
  uint32_t c = static_cast<uint32_t>(i / rows), r = static_cast<uint32_t>(i % rows);
  out[i] = columns.in[c] == nullptr ? 0 : columns.in[c][r];
}

__global__ void markEdges(DeviceAdjacency range, const uint32_t* from, const uint32_t* to, uint32_t rows,
                          uint32_t* flags) {
  const uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows && containsSorted(lookup(range, from[r], true), to[r])) flags[r] = 1;
}

__global__ void keepRows(const uint32_t* flags, const uint32_t* positions, uint32_t rows, Columns columns) {
  const uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows || !flags[r]) return;
  for (int c = 0; c < columns.count; ++c) columns.out[c][positions[r]] = columns.in[c][r];
}

__device__ uint64_t saturatingAdd(uint64_t a, uint64_t b) { return b > UINT64_MAX - a ? UINT64_MAX : a + b; }
__device__ uint64_t saturatingMultiply(uint64_t a, uint64_t b) {
  return a != 0 && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

// A row's survivors are the counts of its chunks (a run's count sits in its first chunk, the others hold 0).
__global__ void multiplyRows(uint32_t rows, const uint32_t* chunkStarts, const uint32_t* counts, uint64_t* products,
                             bool first) {
  const uint64_t r = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  if (r >= rows) return;
  uint64_t survivors = 0;
  for (uint32_t t = chunkStarts[r]; t < chunkStarts[r + 1]; ++t) survivors += counts[t];
  products[r] = first ? survivors : saturatingMultiply(products[r], survivors);
}

// One saturating sum per block, over a grid-stride share of `values`.
// What blockSums adds up: the values of an array, or the set bits of its words.
struct ValueAt {
  const uint64_t* values;
  __device__ uint64_t operator()(uint64_t i) const { return values[i]; }
};
struct SetBitsAt {
  const uint32_t* words;
  __device__ uint64_t operator()(uint64_t i) const { return __popc(words[i]); }
};

template <typename Read>
__global__ void __launch_bounds__(kBlockThreads) blockSums(Read read, uint64_t n, uint64_t* sums) {
  __shared__ uint64_t shared[kBlockThreads];
  uint64_t sum = 0;
  for (uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<uint64_t>(gridDim.x) * blockDim.x) {
    sum = saturatingAdd(sum, read(i));
  }
  shared[threadIdx.x] = sum;
  __syncthreads();
  for (uint32_t half = kBlockThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) shared[threadIdx.x] = saturatingAdd(shared[threadIdx.x], shared[threadIdx.x + half]);
    __syncthreads();
  }
  if (threadIdx.x == 0) sums[blockIdx.x] = shared[0];
}

uint32_t blocksFor(uint64_t threads, uint32_t perBlock) {
  return static_cast<uint32_t>((threads + perBlock - 1) / perBlock);
}

// Launch errors (a grid too large, too much shared memory) are not reported
// by the next synchronisation: they are checked here.
void checkLaunch() { GSPARQL_CUDA(cudaGetLastError()); }

}  // namespace

void launchBinRows(uint32_t rows, const List* lists, const Thresholds& t, const LayerQueues& q, cudaStream_t st) {
  if (rows == 0) return;
  binRows<<<blocksFor(rows, kBlockThreads), kBlockThreads, 0, st>>>(rows, lists, t, q);
  checkLaunch();
}

GeneralStep::GeneralStep(DevicePool& pool, const StepArgs& s, uint32_t rows)
    : pool_(pool), s_(s),
      sizing_(pool, Workspace::bytesFor<List, uint64_t, uint64_t, uint32_t, uint32_t>(rows + 1) +
                        Workspace::bytesFor<uint32_t>(kTallies)) {
  f_.rows = rows;
  auto* lists = sizing_.take<List>(rows + 1);
  auto* sizes = sizing_.take<uint64_t>(rows + 1);
  auto* candidateStarts = sizing_.take<uint64_t>(rows + 1);
  auto* chunkCounts = sizing_.take<uint32_t>(rows + 1);
  auto* chunkStarts = sizing_.take<uint32_t>(rows + 1);
  tallies_ = sizing_.take<uint32_t>(kTallies);
  f_.lists = lists;
  f_.candidateStarts = candidateStarts;
  f_.chunkStarts = chunkStarts;
  GSPARQL_CUDA(cudaMemsetAsync(tallies_, 0, kTallies * sizeof(uint32_t), pool_.stream()));
  sizeRows<<<blocksFor(uint64_t{rows} + 1, kBlockThreads), kBlockThreads, 0, pool_.stream()>>>(
      s, rows, lists, sizes, chunkCounts, tallies_);
  checkLaunch();
  if (rows + 1 <= kSmallScanLimit) {
    launchSmallScanPair(sizes, candidateStarts, chunkCounts, chunkStarts, rows + 1, pool_.stream());
  } else {
    exclusiveScan(pool_, sizes, candidateStarts, rows + 1);
    exclusiveScan(pool_, chunkCounts, chunkStarts, rows + 1);
  }
  // On the same stream as readBack's totals: the step waits once for all three.
  GSPARQL_CUDA(cudaMemcpyAsync(histogram_.data(), tallies_, sizeof(histogram_), cudaMemcpyDeviceToHost,
                               pool_.stream()));
  std::tie(candidates_, f_.chunks) = readBack(pool_, candidateStarts + rows, chunkStarts + rows);
}

uint32_t GeneralStep::filter(const Thresholds& t, bool twoPass, bool naive) {
  twoPass_ = twoPass;
  naive_ = naive;
  counting_.emplace(pool_, Workspace::bytesFor<uint32_t, uint32_t>(f_.chunks + 1));
  f_.counts = counting_->take<uint32_t>(f_.chunks + 1);
  outStarts_ = counting_->take<uint32_t>(f_.chunks + 1);
  // Runs write only their first chunk's count; the rest, and the slot past the last, stay zero.
  GSPARQL_CUDA(cudaMemsetAsync(f_.counts, 0, (f_.chunks + 1) * sizeof(uint32_t), pool_.stream()));
  if (!twoPass_) {
    survivors_ = DeviceArray<uint32_t>(pool_, candidates_);
    f_.out = survivors_.data();
  }
  if (!naive_) binRows(t);
  launchFilters(!twoPass_);
  exclusiveScan(pool_, f_.counts, outStarts_, f_.chunks + 1);
  newRows_ = readBack(pool_, outStarts_ + f_.chunks);
  return newRows_;
}

void GeneralStep::binRows(const Thresholds& t) {
  thresholds_ = t;
  sizes_ = layerSizes(histogram_, t);
  const auto& rows = sizes_.rows;
  queueSpace_.emplace(pool_, Workspace::bytesFor<uint32_t>(rows[0]) + Workspace::bytesFor<Run>(rows[1]) +
                                 Workspace::bytesFor<Run>(sizes_.blockRuns));
  queues_.warpRows = queueSpace_->take<uint32_t>(rows[0]);
  queues_.pooledRuns = queueSpace_->take<Run>(rows[1]);
  queues_.blockRuns = queueSpace_->take<Run>(sizes_.blockRuns);
  queues_.queued = tallies_ + kWorkBins;
  launchBinRows(f_.rows, f_.lists, t, queues_, pool_.stream());
}

// Each layer with rows gets its own launch, sized from the histogram; a
// block past its queue's device count returns at once.
void GeneralStep::launchFilters(bool write) {
  if (f_.chunks == 0) return;
  cudaStream_t st = pool_.stream();
  if (naive_) {
    (write ? filterThread<true> : filterThread<false>)<<<blocksFor(f_.chunks, kBlockThreads), kBlockThreads, 0, st>>>(
        s_, f_);
    return checkLaunch();
  }
  const auto& rows = sizes_.rows;
  if (rows[0] > 0) {
    (write ? filterRows<true> : filterRows<false>)<<<blocksFor(rows[0], kWarps), kBlockThreads, 0, st>>>(
        s_, f_, queues_.warpRows, queues_.queued);
  }
  const uint32_t perPool = poolRows(thresholds_);
  if (rows[1] > 0) {
    (write ? filterRuns<true> : filterRuns<false>)<<<blocksFor(rows[1], perPool), kBlockThreads, 0, st>>>(
        s_, f_, queues_.pooledRuns, queues_.queued + 1, perPool);
  }
  if (sizes_.blockRuns > 0) {
    (write ? filterRuns<true> : filterRuns<false>)<<<blocksFor(sizes_.blockRuns, 1), kBlockThreads, 0, st>>>(
        s_, f_, queues_.blockRuns, queues_.queued + 2, 1);
  }
  checkLaunch();
}

void GeneralStep::link(const Columns& columns) {
  const auto newColumn = static_cast<uint32_t>(columns.count);
  if (twoPass_) {
    f_.outStarts = outStarts_;
    f_.out = columns.out[newColumn];
    launchFilters(true);
  }
  if (newRows_ == 0) return;
  linkRows<<<blocksFor(newRows_, kBlockThreads), kBlockThreads, 0, pool_.stream()>>>(
      columns, newColumn, newRows_, f_, outStarts_, twoPass_ ? nullptr : survivors_.data());
  checkLaunch();
}

void GeneralStep::multiplyRowCounts(uint64_t* products, bool first) const {
  if (f_.rows == 0) return;
  multiplyRows<<<blocksFor(f_.rows, kBlockThreads), kBlockThreads, 0, pool_.stream()>>>(f_.rows, f_.chunkStarts,
                                                                                          f_.counts, products, first);
  checkLaunch();
}

namespace {

// The sum of read(0) ... read(n - 1), saturating; one host synchronisation.
template <typename Read>
uint64_t sumOnDevice(DevicePool& pool, Read read, uint64_t n) {
  constexpr uint32_t kMostBlocks = 256;
  const uint32_t blocks = std::clamp(blocksFor(n, kBlockThreads), 1u, kMostBlocks);
  DeviceArray<uint64_t> sums(pool, blocks);
  blockSums<<<blocks, kBlockThreads, 0, pool.stream()>>>(read, n, sums.data());
  checkLaunch();
  uint64_t total = 0;
  for (uint64_t s : sums.download()) total = s > UINT64_MAX - total ? UINT64_MAX : total + s;
  return total;
}

}  // namespace

uint64_t saturatingSum(DevicePool& pool, const uint64_t* values, uint32_t n) {
  return sumOnDevice(pool, ValueAt{values}, n);
}

uint64_t countSetBits(DevicePool& pool, const uint32_t* words, uint64_t n) {
  return sumOnDevice(pool, SetBitsAt{words}, n);
}

// Resident warps and blocks counted for the filter kernels as compiled
// (their registers and shared memory), not for the device's thread limit.
DeviceShape deviceShape() {
  static const DeviceShape shape = [] {
    int device = 0, processors = 0, rowBlocks = 0, runBlocks = 0;
    GSPARQL_CUDA(cudaGetDevice(&device));
    GSPARQL_CUDA(cudaDeviceGetAttribute(&processors, cudaDevAttrMultiProcessorCount, device));
    GSPARQL_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&rowBlocks, filterRows<true>, kBlockThreads, 0));
    GSPARQL_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&runBlocks, filterRuns<true>, kBlockThreads, 0));
    return DeviceShape{uint64_t(processors) * uint64_t(rowBlocks) * kWarps, uint64_t(processors) * uint64_t(runBlocks)};
  }();
  return shape;
}

void launchSetBits(const uint32_t* keys, uint32_t n, uint32_t* bits, cudaStream_t st) {
  if (n > 0) setBits<<<blocksFor(n, kBlockThreads), kBlockThreads, 0, st>>>(keys, n, bits);
}

void launchCountVertices(const uint32_t* keys, uint32_t n, uint64_t* counts, cudaStream_t st) {
  static_assert(sizeof(uint64_t) == sizeof(unsigned long long));
  if (n > 0) {
    countVertices<<<blocksFor(n, kBlockThreads), kBlockThreads, 0, st>>>(
        keys, n, reinterpret_cast<unsigned long long*>(counts));
  }
}

void launchPackColumns(const Columns& columns, uint32_t rows, uint32_t* out, cudaStream_t st) {
  uint64_t n = uint64_t{rows} * columns.count;
  if (n > 0) packColumns<<<blocksFor(n, kBlockThreads), kBlockThreads, 0, st>>>(columns, rows, out);
}

void launchMarkEdges(const DeviceAdjacency& range, const uint32_t* from, const uint32_t* to, uint32_t rows,
                     uint32_t* flags, cudaStream_t st) {
  if (rows > 0) markEdges<<<blocksFor(rows, kBlockThreads), kBlockThreads, 0, st>>>(range, from, to, rows, flags);
  checkLaunch();
}

uint32_t flaggedPositions(DevicePool& pool, const uint32_t* flags, uint32_t rows, uint32_t* positions) {
  exclusiveScan(pool, flags, positions, size_t{rows} + 1);
  return readBack(pool, positions + rows);
}

void launchKeepRows(const uint32_t* flags, const uint32_t* positions, uint32_t rows, const Columns& columns,
                    cudaStream_t st) {
  if (rows > 0) keepRows<<<blocksFor(rows, kBlockThreads), kBlockThreads, 0, st>>>(flags, positions, rows, columns);
  checkLaunch();
}

}  // namespace gsparql::engine::gpu
