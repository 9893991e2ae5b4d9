#include "engine/gpu/join_kernels.cuh"

#include "engine/gpu/step_device.cuh"

namespace gsparql::engine::gpu {
namespace {

// Also writes the zero past the last row that the prefix sums turn into totals.
__global__ void sizeRows(StepArgs s, uint32_t rows, List* lists, uint64_t* sizes, uint32_t* chunks) {
  uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r == rows) sizes[r] = 0, chunks[r] = 0;
  if (r >= rows) return;
  List list = candidatesOf(s, r);
  lists[r] = list;
  sizes[r] = list.size;
  chunks[r] = (list.size + kChunk - 1) / kChunk;
}

struct ChunkTask {
  uint32_t row, start, length;
};

__device__ ChunkTask taskOf(const uint32_t* chunkStarts, uint32_t rows, const List* lists, uint32_t chunk) {
  uint32_t r = segmentOf(chunkStarts, rows, chunk);
  uint32_t start = (chunk - chunkStarts[r]) * kChunk;
  return {r, start, min(kChunk, lists[r].size - start)};
}

// Warp-level filter: each lane probes one candidate at a time; survivors are
// compacted with a ballot. With `Write`, they go to `out` at `outStart`.
template <bool Write>
__global__ void filterWarp(StepArgs s, uint32_t rows, uint32_t chunks, const List* lists,
                           const uint32_t* chunkStarts, const uint64_t* candidateStarts, const uint32_t* outStarts,
                           uint32_t* out, uint32_t* counts) {
  const uint32_t warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const uint32_t lane = threadIdx.x % 32;
  if (blockIdx.x == 0 && threadIdx.x == 0) counts[chunks] = 0;  // becomes the total after the prefix sum
  if (warp >= chunks) return;
  const ChunkTask task = taskOf(chunkStarts, rows, lists, warp);
  const RowProbes probes = probesOf(s, task.row);
  const List list = lists[task.row];
  uint64_t base = outStarts ? outStarts[warp] : candidateStarts[task.row] + task.start;
  uint32_t kept = 0;
  for (uint32_t i = 0; i < task.length; i += 32) {
    bool valid = i + lane < task.length;
    uint32_t c = valid ? candidateAt(s, list, task.start + i + lane) : 0;
    bool ok = valid && passes(s, probes, task.row, c);
    uint32_t ballot = __ballot_sync(kFullMask, ok);
    if (Write && ok) out[base + kept + __popc(ballot & ((1u << lane) - 1))] = c;
    kept += __popc(ballot);
  }
  if (lane == 0) counts[warp] = kept;
}

// Ablation: one thread per task, probing with linear merges.
template <bool Write>
__global__ void filterThread(StepArgs s, uint32_t rows, uint32_t chunks, const List* lists,
                             const uint32_t* chunkStarts, const uint64_t* candidateStarts,
                             const uint32_t* outStarts, uint32_t* out, uint32_t* counts) {
  const uint32_t chunk = blockIdx.x * blockDim.x + threadIdx.x;
  if (chunk == 0) counts[chunks] = 0;  // becomes the total after the prefix sum
  if (chunk >= chunks) return;
  const ChunkTask task = taskOf(chunkStarts, rows, lists, chunk);
  const List list = lists[task.row];
  const RowProbes probes = probesOf(s, task.row);
  uint32_t cursor[kMaxChecks] = {};
  uint64_t base = outStarts ? outStarts[chunk] : candidateStarts[task.row] + task.start;
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
    if (ok && Write) out[base + kept] = c;
    kept += ok;
  }
  counts[chunk] = kept;
}

// Writes the new table: each task's survivors, and the columns of its row.
__global__ void link(Columns columns, uint32_t newColumn, uint32_t rows, uint32_t chunks, const List* lists,
                     const uint32_t* chunkStarts, const uint64_t* candidateStarts, const uint32_t* outStarts,
                     const uint32_t* counts, const uint32_t* survivors) {
  const uint32_t warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const uint32_t lane = threadIdx.x % 32;
  if (warp >= chunks) return;
  const ChunkTask task = taskOf(chunkStarts, rows, lists, warp);
  const uint32_t outStart = outStarts[warp];
  for (uint32_t j = lane; j < counts[warp]; j += 32) {
    const uint32_t o = outStart + j;
    for (int c = 0; c < columns.count; ++c) columns.out[c][o] = columns.in[c][task.row];
    if (survivors) columns.out[newColumn][o] = survivors[candidateStarts[task.row] + task.start + j];
  }
}

__global__ void setBits(const uint32_t* keys, uint32_t n, uint32_t* bits) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicOr(&bits[keys[i] >> 5], 1u << (keys[i] & 31));
}

__global__ void toRows(Columns columns, uint32_t rows, uint32_t* out) {
  const uint32_t width = static_cast<uint32_t>(columns.count);
  uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
  if (i >= static_cast<uint64_t>(rows) * width) return;
  uint32_t r = static_cast<uint32_t>(i / width), c = static_cast<uint32_t>(i % width);
  out[i] = columns.in[c] == nullptr ? 0 : columns.in[c][r];
}

uint32_t blocksFor(uint64_t threads, uint32_t perBlock) {
  return static_cast<uint32_t>((threads + perBlock - 1) / perBlock);
}

}  // namespace

constexpr uint32_t kThreads = 256;

void launchSizeRows(const StepArgs& s, uint32_t rows, List* lists, uint64_t* sizes, uint32_t* chunks, cudaStream_t st) {
  sizeRows<<<blocksFor(uint64_t{rows} + 1, kThreads), kThreads, 0, st>>>(s, rows, lists, sizes, chunks);
}

void launchFilter(const StepArgs& s, bool naive, bool write, const FilterLaunch& f, cudaStream_t st) {
  if (f.chunks == 0) return;
  if (naive) {
    auto kernel = write ? filterThread<true> : filterThread<false>;
    kernel<<<blocksFor(f.chunks, kThreads), kThreads, 0, st>>>(s, f.rows, f.chunks, f.lists, f.chunkStarts,
                                                               f.candidateStarts, f.outStarts, f.out, f.counts);
  } else {
    auto kernel = write ? filterWarp<true> : filterWarp<false>;
    kernel<<<blocksFor(uint64_t{f.chunks} * 32, kThreads), kThreads, 0, st>>>(
        s, f.rows, f.chunks, f.lists, f.chunkStarts, f.candidateStarts, f.outStarts, f.out, f.counts);
  }
}

void launchLink(const Columns& columns, uint32_t newColumn, const FilterLaunch& f, const uint32_t* outStarts,
                const uint32_t* survivors, cudaStream_t st) {
  if (f.chunks == 0) return;
  link<<<blocksFor(uint64_t{f.chunks} * 32, kThreads), kThreads, 0, st>>>(
      columns, newColumn, f.rows, f.chunks, f.lists, f.chunkStarts, f.candidateStarts, outStarts, f.counts, survivors);
}

void launchSetBits(const uint32_t* keys, uint32_t n, uint32_t* bits, cudaStream_t st) {
  if (n > 0) setBits<<<blocksFor(n, kThreads), kThreads, 0, st>>>(keys, n, bits);
}

void launchToRows(const Columns& columns, uint32_t rows, uint32_t* out, cudaStream_t st) {
  uint64_t n = uint64_t{rows} * columns.count;
  if (n > 0) toRows<<<blocksFor(n, kThreads), kThreads, 0, st>>>(columns, rows, out);
}

}  // namespace gsparql::engine::gpu
