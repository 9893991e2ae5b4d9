#pragma once
// The multi-threaded CPU executor: every BGP plan, on all cores (oneTBB).
#include <memory>

#include "engine/bgp/executor.h"

namespace gsparql::engine {

std::unique_ptr<Executor> makeCpuExecutor();

}  // namespace gsparql::engine
