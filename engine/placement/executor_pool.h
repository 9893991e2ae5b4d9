#pragma once
// Executors that many queries share while each serves one caller at a time
// (GPU executors: each bound to a device object, gpu/gpu_device.cuh, with
// its own stream, device memory and adjacency cache). A call leases an idle
// executor of the pool for its duration (a cursor from the moment it is
// opened until it is destroyed, and the optimizer's walks each estimate),
// waiting only while every executor is leased; so as many GPU calls run at
// once as the pool has executors, on their own streams. A thread that holds
// one already (a query holding a cursor runs another BGP of its own) gets
// the same one again, as it would on the unpooled executor. A cursor may be
// read and destroyed on another thread (its lease is the opener's), but
// meanwhile the opener must make no other call on the pool, or the two
// threads would share its executor. An idle executor last used by the
// calling thread is preferred: its cache holds what that thread's queries read.
#include <memory>
#include <vector>

#include "engine/bgp/executor.h"

namespace gsparql::engine {

std::unique_ptr<Executor> makeExecutorPool(std::vector<std::unique_ptr<Executor>> executors);

}  // namespace gsparql::engine
