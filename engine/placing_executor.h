#pragma once
// --backend auto: each BGP runs on the executor its estimated work suits.
// The GPU executor pays a fixed cost per BGP (kernel launches, host
// synchronisations, copying the result back), about 0.1 ms on the H100
// machine, that a BGP whose steps make few rows does not recover: below
// kGpuFromRows estimated rows over all its steps (C_out) the CPU executor
// runs it, above the GPU one. The threshold was measured on the H100
// machine's WatDiv SF100 run (benchmarks/results/h100-2026-11-23-optimizer-
// counts-decoding): 1,000 rows put 178 of 191 queries within 10% of the
// faster executor.
#include <memory>

#include "engine/executor.h"

namespace gsparql::engine {

inline constexpr double kGpuFromRows = 1000;

// Places each BGP on `cpu` or `gpu` (both outlive it) and says where in the profile's note.
std::unique_ptr<Executor> makePlacingExecutor(Executor& cpu, Executor& gpu, double gpuFromRows = kGpuFromRows);

// The rows a plan's steps are estimated to make, all steps of all components (C_out).
double estimatedRowsOverSteps(const BgpPlan& plan);

}  // namespace gsparql::engine
