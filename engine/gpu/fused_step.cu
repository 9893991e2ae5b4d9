#include "engine/gpu/fused_step.cuh"

#include "engine/gpu/block_scan.cuh"
#include "engine/gpu/step_device.cuh"

namespace gsparql::engine::gpu {
namespace {

constexpr int kThreads = 1024;
constexpr int kWarps = kThreads / 32;

// Index of the row whose candidates hold position i (rowStarts ascending).
__device__ uint32_t rowOf(const uint64_t* rowStarts, uint32_t rows, uint64_t i) {
  uint32_t lo = 0, hi = rows;
  while (lo + 1 < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (rowStarts[mid] <= i) lo = mid; else hi = mid;
  }
  return lo;
}

// Exclusive prefix sum of rowStarts[0..n) in place, tile by tile; returns the total.
__device__ uint64_t scanInPlace(uint64_t* values, uint32_t n, uint64_t* tile) {
  uint64_t carry = 0;
  for (uint32_t base = 0; base < n; base += kThreads) {
    const uint32_t i = base + threadIdx.x;
    const uint64_t v = i < n ? values[i] : 0;
    tile[threadIdx.x] = v;
    __syncthreads();
    inclusiveScanInShared<uint64_t, kThreads>(tile);
    if (i < n) values[i] = carry + tile[threadIdx.x] - v;
    carry += tile[kThreads - 1];
    __syncthreads();
  }
  return carry;
}

__global__ void __launch_bounds__(kThreads) fusedStep(StepArgs s, Columns columns, uint32_t newColumn,
                                                      int stepIndex, FusedBuffers b) {
  __shared__ uint64_t tile[kThreads];
  __shared__ uint32_t warpOffsets[kWarps];
  __shared__ uint32_t kept, roundKept;
  const uint32_t rows = b.state->rows;
  if (b.state->overflow) return;
  for (uint32_t r = threadIdx.x; r < rows; r += kThreads) {
    List list = candidatesOf(s, r);
    b.lists[r] = list;
    b.rowStarts[r] = list.size;
  }
  __syncthreads();
  const uint64_t total = scanInPlace(b.rowStarts, rows, tile);
  if (total > b.capacity) {
    if (threadIdx.x == 0) b.state->overflow = 1;
    return;
  }
  if (threadIdx.x == 0) b.rowStarts[rows] = total, kept = 0;
  __syncthreads();
  // Rounds of one candidate per thread; survivors keep the candidates' order
  // (rows in order, each row's list in order), as on the CPU.
  const uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (uint64_t base = 0; base < total; base += kThreads) {
    const uint64_t i = base + threadIdx.x;
    bool ok = false;
    uint32_t row = 0, c = 0;
    if (i < total) {
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
      const uint32_t at = warpOffsets[warp] + __popc(ballot & ((1u << lane) - 1));
      b.survivorValues[at] = c;
      b.survivorRows[at] = row;
    }
    __syncthreads();
    if (threadIdx.x == 0) kept += roundKept;
    __syncthreads();
  }
  const uint32_t newRows = kept;
  for (uint32_t j = threadIdx.x; j < newRows; j += kThreads) {
    const uint32_t row = b.survivorRows[j];
    for (int c = 0; c < columns.count; ++c) columns.out[c][j] = columns.in[c][row];
    columns.out[newColumn][j] = b.survivorValues[j];
  }
  if (threadIdx.x == 0) {
    b.state->rows = newRows;
    if (stepIndex < kMaxSteps) b.state->stepRows[stepIndex] = newRows;
  }
}

__global__ void reset(FusedState* state) {
  state->rows = 1;
  state->overflow = 0;
}

}  // namespace

void launchFusedStep(const StepArgs& s, const Columns& columns, uint32_t newColumn, int stepIndex,
                     const FusedBuffers& b, cudaStream_t stream) {
  fusedStep<<<1, kThreads, 0, stream>>>(s, columns, newColumn, stepIndex, b);
}

void launchFusedReset(FusedState* state, cudaStream_t stream) { reset<<<1, 1, 0, stream>>>(state); }

}  // namespace gsparql::engine::gpu
