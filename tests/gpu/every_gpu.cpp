#include "every_gpu.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "engine/gpu/gpu_executor.h"

namespace gsparql::test {

std::unique_ptr<engine::Executor> everyGpu(const engine::SpreadOptions& options) {
  const int devices = std::max(2, engine::gpuCount());
  std::vector<engine::SpreadDevice> spread;
  for (int d = 0; d < devices; ++d) {
    engine::GpuOptions gpu;
    gpu.device = d % engine::gpuCount();
    gpu.memoryShares = static_cast<uint32_t>(devices / engine::gpuCount());
    spread.push_back({"GPU " + std::to_string(d), engine::makeGpuExecutor(gpu)});
  }
  return engine::makeDeviceSpreadExecutor(std::move(spread), options);
}

}  // namespace gsparql::test
