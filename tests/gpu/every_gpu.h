#pragma once
// Every GPU of the machine as one executor (engine/placement/device_spread_executor.h).
// On a machine of one GPU, two device objects share it: what is spread over
// devices, and its order, is checked all the same.
#include <memory>

#include "engine/bgp/executor.h"
#include "engine/placement/device_spread_executor.h"

namespace gsparql::test {

std::unique_ptr<engine::Executor> everyGpu(const engine::SpreadOptions& options);

}  // namespace gsparql::test
