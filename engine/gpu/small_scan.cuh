#pragma once
// An exclusive prefix sum in one kernel launch and no scratch memory, for the
// short arrays of light queries, where CUB's two-call protocol and temporary
// allocation cost more than the sum.
#include <cuda_runtime.h>

#include <cstdint>

namespace gsparql::engine::gpu {

inline constexpr uint32_t kSmallScanLimit = 1u << 16;

template <typename In, typename Out>
void launchSmallScan(const In* in, Out* out, uint32_t n, cudaStream_t stream);

// Two short exclusive prefix sums in one launch.
void launchSmallScanPair(const uint64_t* a, uint64_t* aOut, const uint32_t* b, uint32_t* bOut, uint32_t n,
                         cudaStream_t stream);

}  // namespace gsparql::engine::gpu
