#pragma once
#include <cuda_runtime.h>

#include <string>

#include "gsparql/error.h"

namespace gsparql::engine::gpu {

// Every CUDA call is checked; failures become errors naming the call.
inline void check(cudaError_t status, const char* call, const char* file, int line) {
  if (status != cudaSuccess) {
    throw Error(std::string("CUDA error in ") + call + " at " + file + ":" + std::to_string(line) + ": " +
                cudaGetErrorString(status));
  }
}

}  // namespace gsparql::engine::gpu

#define GSPARQL_CUDA(call) ::gsparql::engine::gpu::check((call), #call, __FILE__, __LINE__)
