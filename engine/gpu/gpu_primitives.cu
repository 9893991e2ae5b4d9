#include "engine/gpu/gpu_primitives.h"

#include <numeric>

#include "engine/gpu/device_scan.cuh"
#include "engine/gpu/join_kernels.cuh"
#include "storage/adjacency.h"

namespace gsparql::engine::gpu {
namespace {

template <typename T>
std::vector<T> scan(const std::vector<T>& values) {
  DevicePool pool;
  auto in = toDevice<T>(pool, values);
  DeviceArray<T> out(pool, values.size());
  exclusiveScan(pool, in.data(), out.data(), values.size());
  return out.download();
}

// A host adjacency copied to the device for one call.
struct DeviceCopy {
  DeviceCopy(DevicePool& pool, const PredicateAdjacency& host)
      : groups(toDevice(pool, host.groups())), groupNeighbours(toDevice(pool, host.groupNeighbours())),
        keys(toDevice(pool, host.keys())), offsets(toDevice(pool, host.offsets())),
        neighbours(toDevice(pool, host.neighbours())),
        view{groups.data(), groupNeighbours.data(), keys.data(), offsets.data(), neighbours.data(),
             host.section().keyCount, host.primaryGroups()} {}
  DeviceArray<pcsr::Group> groups;
  DeviceArray<uint32_t> groupNeighbours, keys, offsets, neighbours;
  DeviceAdjacency view;
};

std::vector<RowRun> downloadRuns(const DeviceArray<Run>& runs, uint32_t count) {
  std::vector<Run> all = runs.download();
  std::vector<RowRun> out;
  for (uint32_t i = 0; i < count; ++i) out.push_back({all[i].row, all[i].first, all[i].length});
  return out;
}

__global__ void lookupKernel(DeviceAdjacency a, const uint32_t* vertices, uint32_t n, bool plainCsr,
                             uint32_t* sizes, uint32_t* first) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  List list = lookup(a, vertices[i], plainCsr);
  sizes[i] = list.size;
  first[i] = list.size > 0 ? list.data[0] : pcsr::kNone;
}

__global__ void containsKernel(List list, const uint32_t* probes, uint32_t n, uint8_t* found) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) found[i] = containsSorted(list, probes[i]);
}

uint32_t blocks(size_t n) { return static_cast<uint32_t>((n + 255) / 256); }

}  // namespace

std::vector<uint32_t> exclusiveScanOnGpu(const std::vector<uint32_t>& values) { return scan(values); }
std::vector<uint64_t> exclusiveScanOnGpu(const std::vector<uint64_t>& values) { return scan(values); }

Lookups lookupsOnGpu(const PredicateAdjacency& host, const std::vector<uint32_t>& vertices, bool plainCsr) {
  DevicePool pool;
  DeviceCopy a(pool, host);
  auto probe = toDevice<uint32_t>(pool, vertices);
  DeviceArray<uint32_t> sizes(pool, vertices.size()), first(pool, vertices.size());
  if (!vertices.empty()) {
    lookupKernel<<<blocks(vertices.size()), 256, 0, pool.stream()>>>(a.view, probe.data(), vertices.size(), plainCsr,
                                                                     sizes.data(), first.data());
  }
  GSPARQL_CUDA(cudaGetLastError());
  return {sizes.download(), first.download()};
}

std::vector<uint8_t> containsOnGpu(const std::vector<uint32_t>& list, const std::vector<uint32_t>& probes) {
  DevicePool pool;
  auto sorted = toDevice<uint32_t>(pool, list);
  auto probe = toDevice<uint32_t>(pool, probes);
  DeviceArray<uint8_t> found(pool, probes.size());
  if (!probes.empty()) {
    containsKernel<<<blocks(probes.size()), 256, 0, pool.stream()>>>(
        List{sorted.data(), static_cast<uint32_t>(list.size())}, probe.data(), probes.size(), found.data());
  }
  GSPARQL_CUDA(cudaGetLastError());
  return found.download();
}

BinnedRows binRowsOnGpu(const std::vector<uint32_t>& candidates, const Thresholds& t) {
  DevicePool pool;
  std::vector<List> lists(candidates.size());
  WorkHistogram histogram{};
  for (size_t r = 0; r < candidates.size(); ++r) {
    lists[r].size = candidates[r];
    if (candidates[r] > 0) ++histogram[workBin(candidates[r])];
  }
  const LayerSizes sizes = layerSizes(histogram, t);
  auto deviceLists = toDevice<List>(pool, lists);
  DeviceArray<uint32_t> warpRows(pool, sizes.rows[0]), queued(pool, 3);
  DeviceArray<Run> pooledRuns(pool, sizes.rows[1]), blockRuns(pool, sizes.blockRuns);
  GSPARQL_CUDA(cudaMemsetAsync(queued.data(), 0, queued.bytes(), pool.stream()));
  launchBinRows(static_cast<uint32_t>(lists.size()), deviceLists.data(), t,
                {warpRows.data(), pooledRuns.data(), blockRuns.data(), queued.data()}, pool.stream());
  const std::vector<uint32_t> counts = queued.download();
  BinnedRows out{warpRows.download(), downloadRuns(pooledRuns, counts[1]), downloadRuns(blockRuns, counts[2])};
  out.warpRows.resize(counts[0]);
  return out;
}

JoinStepResult joinStepOnGpu(const JoinStepCase& c) {
  DevicePool pool;
  DeviceCopy driver(pool, *c.driver), check(pool, *c.check);
  auto x = toDevice<uint32_t>(pool, c.x), y = toDevice<uint32_t>(pool, c.y);
  auto bits = toDevice<uint32_t>(pool, c.candidateBits);
  std::vector<uint32_t> ids(c.x.size());
  std::iota(ids.begin(), ids.end(), 0u);
  auto rowIds = toDevice<uint32_t>(pool, ids);
  StepArgs s;
  s.source = Source::Neighbours;
  s.driver = driver.view;
  s.driverColumn = x.data();
  s.checks[s.checkCount++] = {check.view, y.data()};
  if (!c.candidateBits.empty()) s.candidateSets[s.candidateSetCount++] = bits.data();
  s.earlier[s.earlierCount++] = x.data();
  s.earlier[s.earlierCount++] = y.data();
  s.injective = c.injective;

  GeneralStep step(pool, s, static_cast<uint32_t>(c.x.size()));
  JoinStepResult out;
  out.histogram = step.histogram();
  out.thresholds = chooseThresholds(step.histogram(), deviceShape(), c.thresholds);
  const uint32_t newRows = step.filter(out.thresholds, c.twoPass, c.naive);
  DeviceArray<uint32_t> rows(pool, newRows), candidates(pool, newRows);
  Columns columns;
  columns.in[0] = rowIds.data();
  columns.out[columns.count++] = rows.data();
  columns.out[columns.count] = candidates.data();  // the new vertex's column
  step.link(columns);
  out.rows = rows.download();
  out.candidates = candidates.download();
  return out;
}

}  // namespace gsparql::engine::gpu
