#include "engine/gpu/small_scan.cuh"

#include "engine/gpu/block_scan.cuh"

namespace gsparql::engine::gpu {
namespace {

constexpr int kScanThreads = 1024;

// One block: each thread sums a contiguous slice, the block scans the slice
// sums in shared memory, then each thread writes its slice's prefix sums.
template <typename In, typename Out>
__global__ void scanOneBlock(const In* in, Out* out, uint32_t n) {
  __shared__ Out sums[kScanThreads];
  const uint32_t per = (n + kScanThreads - 1) / kScanThreads;
  const uint32_t begin = threadIdx.x * per, end = min(n, begin + per);
  Out local = 0;
  for (uint32_t i = begin; i < end; ++i) local += static_cast<Out>(in[i]);
  sums[threadIdx.x] = local;
  __syncthreads();
  inclusiveScanInShared<Out, kScanThreads>(sums);
  Out running = threadIdx.x == 0 ? 0 : sums[threadIdx.x - 1];
  for (uint32_t i = begin; i < end; ++i) {
    Out value = static_cast<Out>(in[i]);
    out[i] = running;
    running += value;
  }
}

// The two prefix sums of a step's sizing pass in one launch: candidates per
// row (64-bit) and warp tasks per row.
__global__ void scanPairOneBlock(const uint64_t* a, uint64_t* aOut, const uint32_t* b, uint32_t* bOut, uint32_t n) {
  __shared__ uint64_t sumsA[kScanThreads];
  __shared__ uint32_t sumsB[kScanThreads];
  const uint32_t per = (n + kScanThreads - 1) / kScanThreads;
  const uint32_t begin = threadIdx.x * per, end = min(n, begin + per);
  uint64_t localA = 0;
  uint32_t localB = 0;
  for (uint32_t i = begin; i < end; ++i) localA += a[i], localB += b[i];
  sumsA[threadIdx.x] = localA;
  sumsB[threadIdx.x] = localB;
  __syncthreads();
  inclusiveScanInShared<uint64_t, kScanThreads>(sumsA);
  inclusiveScanInShared<uint32_t, kScanThreads>(sumsB);
  uint64_t runA = threadIdx.x == 0 ? 0 : sumsA[threadIdx.x - 1];
  uint32_t runB = threadIdx.x == 0 ? 0 : sumsB[threadIdx.x - 1];
  for (uint32_t i = begin; i < end; ++i) {
    uint64_t va = a[i];
    uint32_t vb = b[i];
    aOut[i] = runA, bOut[i] = runB;
    runA += va, runB += vb;
  }
}

}  // namespace

void launchSmallScanPair(const uint64_t* a, uint64_t* aOut, const uint32_t* b, uint32_t* bOut, uint32_t n,
                         cudaStream_t stream) {
  scanPairOneBlock<<<1, kScanThreads, 0, stream>>>(a, aOut, b, bOut, n);
}

template <typename In, typename Out>
void launchSmallScan(const In* in, Out* out, uint32_t n, cudaStream_t stream) {
  scanOneBlock<In, Out><<<1, kScanThreads, 0, stream>>>(in, out, n);
}

template void launchSmallScan<uint32_t, uint32_t>(const uint32_t*, uint32_t*, uint32_t, cudaStream_t);
template void launchSmallScan<uint64_t, uint64_t>(const uint64_t*, uint64_t*, uint32_t, cudaStream_t);

}  // namespace gsparql::engine::gpu
