#pragma once
// An executor that many queries share while it serves one caller at a time
// (the GPU executor: one stream, one adjacency cache): every call holds
// `mutex`, a cursor from the moment it is opened until it is destroyed, and
// its walks (the optimizer's) each estimate. The mutex is recursive because
// one query may hold a cursor and run another BGP of its own meanwhile, as
// it may on the unwrapped executor. Queries whose BGPs go elsewhere (the
// placing executor's CPU ones) take no lock at all.
#include <memory>
#include <mutex>

#include "engine/executor.h"

namespace gsparql::engine {

std::unique_ptr<Executor> makeLockedExecutor(std::unique_ptr<Executor> inner, std::recursive_mutex& mutex);

}  // namespace gsparql::engine
