#pragma once
// Inclusive prefix sum of one value per thread, in shared memory, for blocks
// of `Threads` threads (Hillis-Steele: log2(Threads) rounds).

namespace gsparql::engine::gpu {

template <typename T, int Threads>
__device__ void inclusiveScanInShared(T* tile) {
  for (int offset = 1; offset < Threads; offset *= 2) {
    T add = threadIdx.x >= offset ? tile[threadIdx.x - offset] : T{0};
    __syncthreads();
    tile[threadIdx.x] += add;
    __syncthreads();
  }
}

}  // namespace gsparql::engine::gpu
