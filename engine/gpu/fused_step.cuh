#pragma once
// The light-query path: a whole join step in one kernel of one block, with
// the row count kept on the device, so a query's steps run back to back with
// no host synchronisation until its result is read. Bounded by a fixed
// capacity; a step that would exceed it sets a flag and the component is run
// again on the general path.
#include <cuda_runtime.h>

#include <cstdint>

#include "engine/gpu/join_step.cuh"

namespace gsparql::engine::gpu {

inline constexpr int kMaxSteps = 64;

struct FusedState {
  uint32_t rows;
  uint32_t overflow;
  uint32_t stepRows[kMaxSteps];
};

struct FusedBuffers {
  uint32_t capacity = 0;            // candidates and rows a step may have
  FusedState* state = nullptr;
  List* lists = nullptr;            // capacity
  uint64_t* rowStarts = nullptr;    // capacity + 1
  uint32_t* survivorValues = nullptr;
  uint32_t* survivorRows = nullptr;
};

void launchFusedStep(const StepArgs& s, const Columns& columns, uint32_t newColumn, int stepIndex,
                     const FusedBuffers& b, cudaStream_t stream);
void launchFusedReset(FusedState* state, cudaStream_t stream);

}  // namespace gsparql::engine::gpu
