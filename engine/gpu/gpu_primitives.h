#pragma once
// Single GPU building blocks behind plain C++ calls, so tests can check each
// against a host computation on random inputs.
#include <cstdint>
#include <vector>

#include "engine/gpu/load_balance.h"

namespace gsparql {
class PredicateAdjacency;
}

namespace gsparql::engine::gpu {

std::vector<uint32_t> exclusiveScanOnGpu(const std::vector<uint32_t>& values);
std::vector<uint64_t> exclusiveScanOnGpu(const std::vector<uint64_t>& values);

// For each vertex: the size of its neighbour list and its first neighbour
// (0xFFFFFFFF when empty), found through the PCSR groups or, with
// `plainCsr`, by binary search over the sorted keys.
struct Lookups {
  std::vector<uint32_t> sizes, first;
};
Lookups lookupsOnGpu(const PredicateAdjacency& adjacency, const std::vector<uint32_t>& vertices, bool plainCsr);

// For each probe: whether it is in the sorted `list` (the join's membership test).
std::vector<uint8_t> containsOnGpu(const std::vector<uint32_t>& list, const std::vector<uint32_t>& probes);

// Rows with the given candidate counts sorted into the load-balance layers
// by the join step's binning kernel: each queue's entries, in the order the
// kernel left them (which varies).
struct RowRun {
  uint32_t row, first, length;
  friend auto operator<=>(const RowRun&, const RowRun&) = default;
};
struct BinnedRows {
  std::vector<uint32_t> warpRows;
  std::vector<RowRun> pooledRuns, blockRuns;
};
BinnedRows binRowsOnGpu(const std::vector<uint32_t>& candidates, const Thresholds& t);

// One general-path join step (GeneralStep), as the executor runs it. Row r
// binds x[r] and y[r]; its candidates are x[r]'s neighbours in `driver`; a
// candidate c survives when it is among y[r]'s neighbours in `check`, its bit
// is set in `candidateBits` (empty: every bit), and, if `injective`, it is
// neither x[r] nor y[r].
struct JoinStepCase {
  const PredicateAdjacency* driver = nullptr;
  const PredicateAdjacency* check = nullptr;
  std::vector<uint32_t> x, y, candidateBits;
  bool injective = false, twoPass = false, naive = false;
  Thresholds thresholds;  // all zero: chosen from the histogram, as the executor does
};
struct JoinStepResult {
  std::vector<uint32_t> rows, candidates;  // the new table, in order: each survivor's row and candidate
  WorkHistogram histogram{};
  Thresholds thresholds;
};
JoinStepResult joinStepOnGpu(const JoinStepCase& c);

}  // namespace gsparql::engine::gpu
