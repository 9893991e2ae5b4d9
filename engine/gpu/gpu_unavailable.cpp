// Built instead of the CUDA sources when nvcc is not available.
#include "engine/gpu/gpu_executor.h"
#include "gsparql/error.h"

namespace gsparql::engine {

bool gpuAvailable() { return false; }

std::unique_ptr<Executor> makeGpuExecutor(const GpuOptions&) {
  throw QueryError("this build of gsparql has no GPU backend (nvcc was not found); use --backend cpu");
}

}  // namespace gsparql::engine
