#pragma once
// --backend auto: each BGP runs on the executor the cost model
// (optimizer/cost_model.h) prices lower for its plan's estimated work. The
// GPU executor pays a fixed cost per BGP and per step (kernel launches, host
// synchronisations, copying the result back) that a BGP whose steps make few
// rows does not recover; the CPU executor pays more per candidate and row.
// The constants are the machine's calibrated ones (gsparql calibrate).
//
// What the GPU would copy to its device first is priced too, and paid as
// in the ski-rental problem (rent until the rent paid would have bought):
// a BGP the GPU would run faster but for its copies runs on the CPU, and
// the time the GPU would have saved is kept; once the savings passed up
// reach what the copies cost, the GPU takes the BGP and copies (it then
// holds that adjacency for the BGPs after it). A process that runs many
// queries (a server, the REPL, a benchmark) so moves its recurring work to
// the GPU at no more than twice the cost of the best choice in hindsight,
// and a one-shot query never pays for copies it cannot recover. The savings
// are kept over all BGPs, not per adjacency: a workload's BGPs share their
// predicates.
#include <memory>

#include "engine/bgp/executor.h"
#include "gsparql/cost_model.h"

namespace gsparql::engine {

// Places each BGP on `cpu` or `gpu` (both outlive it) and says where in the profile's note.
std::unique_ptr<Executor> makePlacingExecutor(Executor& cpu, Executor& gpu, const CostModel& costs);

}  // namespace gsparql::engine
