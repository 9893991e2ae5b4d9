#pragma once
// Launchers for the join-step kernels (join_kernels.cu).
#include <cuda_runtime.h>

#include "engine/gpu/join_step.cuh"

namespace gsparql::engine::gpu {

// The warp tasks of one step: `chunks` tasks of up to kChunk candidates,
// task t belonging to the row r with chunkStarts[r] <= t < chunkStarts[r + 1].
struct FilterLaunch {
  uint32_t rows = 0;
  uint32_t chunks = 0;
  const List* lists = nullptr;
  const uint32_t* chunkStarts = nullptr;
  const uint64_t* candidateStarts = nullptr;  // Prealloc-Combine: each row's segment of the buffer
  const uint32_t* outStarts = nullptr;        // two-pass: each task's place in the new column
  uint32_t* out = nullptr;
  uint32_t* counts = nullptr;
};

void launchSizeRows(const StepArgs& s, uint32_t rows, List* lists, uint64_t* sizes, uint32_t* chunks, cudaStream_t st);
void launchFilter(const StepArgs& s, bool naive, bool write, const FilterLaunch& f, cudaStream_t st);
void launchLink(const Columns& columns, uint32_t newColumn, const FilterLaunch& f, const uint32_t* outStarts,
                const uint32_t* survivors, cudaStream_t st);
void launchSetBits(const uint32_t* keys, uint32_t n, uint32_t* bits, cudaStream_t st);
// Row-major copy of columns.in[0..count) (null: a column of zeros).
void launchToRows(const Columns& columns, uint32_t rows, uint32_t* out, cudaStream_t st);

}  // namespace gsparql::engine::gpu
