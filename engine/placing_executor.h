#pragma once
// --backend auto: each BGP runs on the executor the cost model
// (optimizer/cost_model.h) prices lower for its plan's estimated work. The
// GPU executor pays a fixed cost per BGP and per step (kernel launches, host
// synchronisations, copying the result back) that a BGP whose steps make few
// rows does not recover; the CPU executor pays more per candidate and row.
// The constants are the machine's calibrated ones (gsparql calibrate).
#include <memory>

#include "engine/executor.h"
#include "gsparql/cost_model.h"

namespace gsparql::engine {

// Places each BGP on `cpu` or `gpu` (both outlive it) and says where in the profile's note.
std::unique_ptr<Executor> makePlacingExecutor(Executor& cpu, Executor& gpu, const CostModel& costs);

}  // namespace gsparql::engine
