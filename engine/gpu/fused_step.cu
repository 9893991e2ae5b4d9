#include "engine/gpu/fused_step.cuh"

#include <cooperative_groups.h>

#include <cub/block/block_reduce.cuh>

#include "engine/gpu/block_scan.cuh"
#include "engine/gpu/cuda_check.cuh"
#include "engine/gpu/step_device.cuh"

namespace gsparql::engine::gpu {
namespace {

constexpr int kThreads = 1024;
constexpr int kWarps = kThreads / 32;

// Between phases: the block, or the whole grid of a cooperative launch.
template <bool Grid>
__device__ void phaseBarrier() {
  if constexpr (Grid) {
    cooperative_groups::this_grid().sync();
  } else {
    __syncthreads();
  }
}

// Index of the row whose candidates hold position i (rowStarts ascending).
__device__ uint32_t rowOf(const uint64_t* rowStarts, uint32_t rows, uint64_t i) {
  uint32_t lo = 0, hi = rows;
  while (lo + 1 < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (rowStarts[mid] <= i) lo = mid; else hi = mid;
  }
  return lo;
}

// This block's share [begin, end) of n items: consecutive ranges, so results
// written block after block keep the items' order.
struct Share {
  uint64_t begin, end;
};

__device__ Share shareOf(uint64_t n) {
  const uint64_t per = (n + gridDim.x - 1) / gridDim.x;
  const uint64_t begin = min(n, per * blockIdx.x);
  return {begin, min(n, begin + per)};
}

// Exclusive prefix sum of values[begin..end) in place, tile by tile; returns the total.
__device__ uint64_t scanInPlace(uint64_t* values, Share share, uint64_t* tile) {
  uint64_t carry = 0;
  for (uint64_t base = share.begin; base < share.end; base += kThreads) {
    const uint64_t i = base + threadIdx.x;
    const uint64_t v = i < share.end ? values[i] : 0;
    tile[threadIdx.x] = v;
    __syncthreads();
    inclusiveScanInShared<uint64_t, kThreads>(tile);
    if (i < share.end) values[i] = carry + tile[threadIdx.x] - v;
    carry += tile[kThreads - 1];
    __syncthreads();
  }
  return carry;
}

struct Offsets {
  uint64_t before, total;  // the sum over the blocks before this one, and over all
};

// Publishes this block's total; after the barrier, every block reads its offset.
template <bool Grid>
__device__ Offsets blockOffsets(uint64_t mine, uint64_t* blockTotals) {
  if constexpr (!Grid) return {0, mine};
  using Reduce = cub::BlockReduce<uint64_t, kThreads>;
  __shared__ typename Reduce::TempStorage storage;
  __shared__ Offsets result;
  if (threadIdx.x == 0) blockTotals[blockIdx.x] = mine;
  phaseBarrier<Grid>();
  const uint64_t v = threadIdx.x < gridDim.x ? blockTotals[threadIdx.x] : 0;
  const uint64_t before = Reduce(storage).Sum(threadIdx.x < blockIdx.x ? v : 0);
  __syncthreads();
  const uint64_t total = Reduce(storage).Sum(v);
  if (threadIdx.x == 0) result = {before, total};
  __syncthreads();
  return result;
}

// Filters the candidates [share.begin, share.end) in rounds of one per
// thread, compacting survivors in candidate order (rows in order, each row's
// list in order, as on the CPU) from position share.begin; returns how many.
__device__ uint32_t filterShare(const StepArgs& s, const FusedBuffers& b, uint32_t rows, Share share) {
  __shared__ uint32_t warpOffsets[kWarps];
  __shared__ uint32_t kept, roundKept;
  const uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (threadIdx.x == 0) kept = 0;
  __syncthreads();
  for (uint64_t base = share.begin; base < share.end; base += kThreads) {
    const uint64_t i = base + threadIdx.x;
    bool ok = false;
    uint32_t row = 0, c = 0;
    if (i < share.end) {
      row = rowOf(b.rowStarts, rows, i);
      c = candidateAt(s, b.lists[row], static_cast<uint32_t>(i - b.rowStarts[row]));
      ok = passes(s, probesOf(s, row), row, c);
    }
    const uint32_t ballot = __ballot_sync(kFullMask, ok);
    if (lane == 0) warpOffsets[warp] = __popc(ballot);
    __syncthreads();
    if (warp == 0) {
      const uint32_t count = warpOffsets[lane];
      uint32_t inclusive = count;
      for (int d = 1; d < 32; d *= 2) {
        uint32_t up = __shfl_up_sync(kFullMask, inclusive, d);
        if (lane >= d) inclusive += up;
      }
      warpOffsets[lane] = kept + inclusive - count;
      if (lane == 31) roundKept = inclusive;
    }
    __syncthreads();
    if (ok) {
      const uint64_t at = share.begin + warpOffsets[warp] + __popc(ballot & ((1u << lane) - 1));
      b.survivorValues[at] = c;
      b.survivorRows[at] = row;
    }
    __syncthreads();
    if (threadIdx.x == 0) kept += roundKept;
    __syncthreads();
  }
  return kept;
}

template <bool Grid>
__global__ void __launch_bounds__(kThreads) fusedStep(StepArgs s, Columns columns, uint32_t newColumn,
                                                      int stepIndex, FusedBuffers b) {
  __shared__ uint64_t tile[kThreads];
  const uint32_t rows = b.state->rows;
  if (b.state->overflow) return;
  // Each block sizes and prefix-sums its own share of the rows.
  const Share rowShare = shareOf(rows);
  for (uint64_t r = rowShare.begin + threadIdx.x; r < rowShare.end; r += kThreads) {
    List list = candidatesOf(s, static_cast<uint32_t>(r));
    b.lists[r] = list;
    b.rowStarts[r] = list.size;
  }
  __syncthreads();
  const uint64_t rowTotal = scanInPlace(b.rowStarts, rowShare, tile);
  const Offsets starts = blockOffsets<Grid>(rowTotal, b.blockTotals);
  if (starts.total > b.capacity) {
    if (blockIdx.x == 0 && threadIdx.x == 0) b.state->overflow = 1;
    return;  // every block sees the same total
  }
  for (uint64_t r = rowShare.begin + threadIdx.x; r < rowShare.end; r += kThreads) b.rowStarts[r] += starts.before;
  if (blockIdx.x == 0 && threadIdx.x == 0) b.rowStarts[rows] = starts.total;
  phaseBarrier<Grid>();
  const Share candidateShare = shareOf(starts.total);
  const uint32_t kept = filterShare(s, b, rows, candidateShare);
  const Offsets out = blockOffsets<Grid>(kept, b.blockTotals + gridDim.x);
  for (uint32_t j = threadIdx.x; j < kept; j += kThreads) {
    const uint64_t from = candidateShare.begin + j, to = out.before + j;
    const uint32_t row = b.survivorRows[from];
    for (int c = 0; c < columns.count; ++c) columns.out[c][to] = columns.in[c][row];
    columns.out[newColumn][to] = b.survivorValues[from];
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    b.state->rows = static_cast<uint32_t>(out.total);
    if (stepIndex < kMaxSteps) b.state->stepRows[stepIndex] = static_cast<uint32_t>(out.total);
  }
}

__global__ void reset(FusedState* state) {
  state->rows = 1;
  state->overflow = 0;
}

}  // namespace

uint32_t fusedGridLimit() {
  int device = 0, perMultiprocessor = 0, multiprocessors = 0;
  GSPARQL_CUDA(cudaGetDevice(&device));
  GSPARQL_CUDA(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  GSPARQL_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perMultiprocessor, fusedStep<true>, kThreads, 0));
  return static_cast<uint32_t>(std::max(1, std::min(kThreads, perMultiprocessor * multiprocessors)));
}

void launchFusedStep(const StepArgs& s, const Columns& columns, uint32_t newColumn, int stepIndex,
                     const FusedBuffers& b, uint32_t blocks, cudaStream_t stream) {
  if (blocks <= 1) {
    fusedStep<false><<<1, kThreads, 0, stream>>>(s, columns, newColumn, stepIndex, b);
    return;
  }
  StepArgs args = s;
  Columns cols = columns;
  FusedBuffers buffers = b;
  void* params[] = {&args, &cols, &newColumn, &stepIndex, &buffers};
  GSPARQL_CUDA(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(fusedStep<true>), dim3(blocks), dim3(kThreads),
                                           params, 0, stream));
}

void launchFusedReset(FusedState* state, cudaStream_t stream) { reset<<<1, 1, 0, stream>>>(state); }

}  // namespace gsparql::engine::gpu
