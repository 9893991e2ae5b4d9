#pragma once
// --backend gpu and, for its GPU side, --backend auto: each call runs on
// the GPU executor, and what the GPU declines (ExecutorDeclined,
// bgp/executor.h: a shape it cannot run, a reader that takes a few of very
// many rows, a device out of memory) runs on the CPU executor instead, its
// profile's note saying why ("ran on the CPU executor: ..."): the one place
// that decides such a fallback.
//
// A count (or distinct count) falls back per component, as the GPU counts
// each component by itself; a cursor falls back at its first batch, to
// the CPU's execute() handed out in batches, as the GPU's cursor would
// have been. The GPU's walks fall back to the CPU's walks
// (optimizer/walk_estimator.h).
#include <memory>

#include "engine/bgp/executor.h"

namespace gsparql::engine {

// Runs each call on `gpu` (owned), or where it declines on `cpu` (which
// outlives it, and may serve others meanwhile). Its name, copies, preload
// and walks are the GPU's.
std::unique_ptr<Executor> makeFallbackExecutor(std::unique_ptr<Executor> gpu, Executor& cpu);

}  // namespace gsparql::engine
