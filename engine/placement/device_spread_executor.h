#pragma once
// Several devices of one kind (the GPUs of a host, each behind its own pool
// of executors, executor_pool.h) as one executor, as G2Miner spreads a
// subgraph match over the GPUs of a machine, each holding its own copy of
// the graph:
// - a light call runs whole on the device with the fewest calls in flight,
//   so concurrent queries spread over the devices;
// - a heavy call (its plan priced at `splitMicroseconds` or more by the cost
//   model) has its first step's candidates cut into chunks, several per
//   device; each device takes the next chunk from a shared queue and runs
//   the whole plan on it (the first vertex limited to the chunk's
//   candidates, a CandidateSource::Constants step), and the chunks' rows
//   are put together in chunk order. The candidates are in id order and
//   each chunk a run of them, so the rows are the ones one device would
//   find, in its order; counts add, and so do counts per vertex, vertex
//   by vertex.
// - the optimizer's walks: a batch of many (splitWalks or more, in all) is
//   dealt out in runs of its plans, one run per device, walked at once; a
//   smaller one goes to the quietest device. Each plan's walks draw the same
//   random numbers in any batch (WalkEstimator's contract), so the estimates
//   are those one device would give.
// Calls it does not cut (a LIMIT, a first vertex that is a constant or
// binds a predicate variable, several components for rows, a distinct
// count of another vertex than the first) run whole on one device.
#include <memory>
#include <string>
#include <vector>

#include "engine/bgp/executor.h"
#include "gsparql/cost_model.h"

namespace gsparql::engine {

struct SpreadOptions {
  ExecutorCosts costs;                // the devices' calibrated constants: what prices a plan
  double splitMicroseconds = 5000;    // a plan priced at least this is cut into chunks
  uint32_t chunksPerDevice = 4;       // for balance: a chunk of hubs may hold most of the work
  uint64_t splitWalks = uint64_t{1} << 20;  // a batch of the optimizer's walks this large is split
};

struct SpreadDevice {
  std::string name;                    // for EXPLAIN: "GPU 1"
  std::unique_ptr<Executor> executor;  // serving concurrent calls (a pool of the device's executors)
};

std::unique_ptr<Executor> makeDeviceSpreadExecutor(std::vector<SpreadDevice> devices, const SpreadOptions& options);

}  // namespace gsparql::engine
