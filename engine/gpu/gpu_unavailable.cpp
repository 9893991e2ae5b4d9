// Built instead of the CUDA sources when nvcc is not available.
#include "engine/gpu/gpu_executor.h"
#include "gsparql/error.h"

namespace gsparql::engine {
namespace {

[[noreturn]] void noGpuBackend() {
  throw QueryError("this build of gsparql has no GPU backend (nvcc was not found); use --backend cpu");
}

}  // namespace

bool gpuAvailable() { return false; }

int gpuCount() { return 0; }

std::shared_ptr<gpu::Device> makeGpuDevice(const GpuOptions&) { noGpuBackend(); }

std::shared_ptr<gpu::PeerRanges> makePeerRanges(const std::vector<int>&, std::optional<uint64_t>, const GpuOptions&) {
  return nullptr;  // no GPUs, no peers: nothing to decline
}

uint64_t peerBytesOnGpu(const gpu::PeerRanges&, int) { noGpuBackend(); }

std::unique_ptr<Executor> makeGpuExecutor(std::shared_ptr<gpu::Device>) { noGpuBackend(); }

std::unique_ptr<Executor> makeGpuExecutor(const GpuOptions&) { noGpuBackend(); }

}  // namespace gsparql::engine
