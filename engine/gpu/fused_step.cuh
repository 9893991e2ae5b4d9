#pragma once
// The light-query path: a whole join step in one kernel launch, with the row
// count kept on the device, so a query's steps run back to back with no host
// synchronisation until its result is read. A step runs on one block, or on
// a grid of co-resident blocks (a cooperative launch, synchronised between
// phases) when the plan expects many candidates. Bounded by a fixed capacity;
// a step that would exceed it sets a flag and the component is run again on
// the general path.
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
  uint64_t* blockTotals = nullptr;  // one per block of the largest grid
};

// Blocks a fused step can use at most (all co-resident on the device).
uint32_t fusedGridLimit();
// Candidates one block of a fused step handles before a grid is worth its synchronisations.
inline constexpr double kCandidatesPerFusedBlock = 8192;

void launchFusedStep(const StepArgs& s, const Columns& columns, uint32_t newColumn, int stepIndex,
                     const FusedBuffers& b, uint32_t blocks, cudaStream_t stream);
void launchFusedReset(FusedState* state, cudaStream_t stream);

}  // namespace gsparql::engine::gpu
