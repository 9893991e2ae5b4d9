#pragma once
// What one join step means on the device, shared by the light path
// (fused_step.cu) and the general path (join_kernels.cu): a row's candidate
// list, and whether a candidate satisfies every filter and edge of the step.
#include "engine/gpu/join_step.cuh"

namespace gsparql::engine::gpu {

__device__ inline List candidatesOf(const StepArgs& s, uint32_t row) {
  switch (s.source) {
    case Source::Constant: return {nullptr, 1};
    case Source::Keys: return {s.driver.keys, s.driver.keyCount};
    case Source::Neighbours: return lookup(s.driver, s.driverColumn[row], s.plainCsr);
  }
  return {};
}

__device__ inline uint32_t candidateAt(const StepArgs& s, List list, uint32_t i) {
  return s.source == Source::Constant ? s.constant : list.data[i];
}

__device__ inline bool usedEarlier(const StepArgs& s, uint32_t row, uint32_t c) {
  for (int i = 0; i < s.earlierCount; ++i) {
    if (s.earlier[i][row] == c) return true;
  }
  return false;
}

// The neighbour lists a row's candidates are probed against, looked up once
// per row (self-loops are looked up per candidate).
struct RowProbes {
  List lists[kMaxChecks];
};

__device__ inline RowProbes probesOf(const StepArgs& s, uint32_t row) {
  RowProbes p;
  for (int i = 0; i < s.checkCount; ++i) {
    if (s.checks[i].boundColumn) p.lists[i] = lookup(s.checks[i].adjacency, s.checks[i].boundColumn[row], s.plainCsr);
  }
  return p;
}

__device__ inline bool passes(const StepArgs& s, const RowProbes& p, uint32_t row, uint32_t c) {
  if (!bitSet(s.candidateBits, c)) return false;
  if (s.injective && usedEarlier(s, row, c)) return false;
  for (int i = 0; i < s.checkCount; ++i) {
    List list = s.checks[i].boundColumn ? p.lists[i] : lookup(s.checks[i].adjacency, c, s.plainCsr);
    if (!containsSorted(list, c)) return false;
  }
  return true;
}

}  // namespace gsparql::engine::gpu
