#include "engine/gpu/gpu_wander_join.cuh"

#include <algorithm>
#include <cmath>

#include "engine/gpu/cuda_check.cuh"
#include "engine/gpu/join_step.cuh"
#include "engine/gpu/kernels.cuh"
#include "storage/graph_store.h"

namespace gsparql::engine::gpu {
namespace {

constexpr uint32_t kWalkThreads = 256;

// An edge a walk checks: row[other] among the neighbours of row[bound].
struct WalkCheck {
  DeviceAdjacency adjacency;
  uint32_t bound = 0, other = 0;
};

struct WalkStep {
  Source source = Source::Constant;  // Constant, Keys, Neighbours or AllVertices
  uint32_t column = 0;               // the step's vertex
  uint32_t constant = 0;
  DeviceAdjacency driver;
  uint32_t driverColumn = 0;
  uint32_t vertexCount = 0;
  WalkCheck checks[kMaxChecks];
  uint32_t checkCount = 0;
  // The plan's second step, bound with the seed from one of its adjacency's
  // edges drawn uniformly (WalkSample::drawSeedEdges): their number.
  uint32_t edgeCount = 0;
  bool fromEdges = false;
  bool alley = false;  // draws among the candidates that pass the checks (WalkOptions::alley)
};

// Alley scans at most this many candidates; a step with more is walked as Wander Join's.
constexpr uint32_t kScanLimit = static_cast<uint32_t>(kAlleyScanLimit);

// Per step: the sums over walks of the weight, its square and the
// candidates (the weight before the checks), and the survivors.
struct StepSums {
  double weight = 0, weightSquared = 0, candidates = 0;
  unsigned long long survivors = 0;
};

__device__ inline uint64_t splitMix(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

__device__ inline uint32_t below(uint64_t& state, uint32_t n) {
  const double fraction = static_cast<double>(splitMix(state) >> 11) * 0x1.0p-53;
  return min(n - 1, static_cast<uint32_t>(fraction * static_cast<double>(n)));
}

__device__ inline double warpSum(double v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(kFullMask, v, offset);
  return v;
}

// Binds the step's vertex to a random candidate; the number of candidates (0: none).
__device__ inline double choose(const WalkStep& s, uint32_t* row, uint64_t& random) {
  List list;
  switch (s.source) {
    case Source::Constant: row[s.column] = s.constant; return 1;
    case Source::AllVertices:
      if (s.vertexCount == 0) return 0;
      row[s.column] = below(random, s.vertexCount);
      return s.vertexCount;
    case Source::Keys: list = {s.driver.keys, s.driver.keyCount}; break;
    default: list = lookup(s.driver, row[s.driverColumn], false); break;
  }
  if (list.size == 0) return 0;
  row[s.column] = list.data[below(random, list.size)];
  return list.size;
}

// Binds the seed (column `seed`) and the next step's vertex from one edge
// of the next step's adjacency drawn uniformly: the key owning edge e is the
// last whose offset is at most e.
__device__ inline void drawEdge(const WalkStep& next, uint32_t seed, uint32_t* row, uint64_t& random) {
  const uint32_t e = below(random, next.edgeCount);
  uint32_t low = 0, high = next.driver.keyCount;  // offsets[low] <= e < offsets[high]
  while (high - low > 1) {
    const uint32_t middle = low + (high - low) / 2;
    if (next.driver.offsets[middle] <= e) low = middle; else high = middle;
  }
  row[seed] = next.driver.keys[low];
  row[next.column] = next.driver.neighbours[e];
}

__device__ inline bool checksHold(const WalkStep& s, const uint32_t* row) {
  for (uint32_t i = 0; i < s.checkCount; ++i) {
    const WalkCheck& c = s.checks[i];
    if (!containsSorted(lookup(c.adjacency, row[c.bound], false), row[c.other])) return false;
  }
  return true;
}

// A Keys or Neighbours step's candidates for the row.
__device__ inline List candidateList(const WalkStep& s, const uint32_t* row) {
  return s.source == Source::Keys ? List{s.driver.keys, s.driver.keyCount}
                                  : lookup(s.driver, row[s.driverColumn], false);
}

// What one walk asks its warp to scan together at an Alley step.
struct Scan {
  uint32_t step = 0;  // its index in the plan
  List candidates;
};

// Whether `candidate`, bound to the step's vertex, passes the step's checks;
// `bound` and `other`: the walk's values of each check's ends (the step's
// vertex's not bound yet).
__device__ inline bool passes(const WalkStep& s, uint32_t candidate, const uint32_t* bound, const uint32_t* other) {
  for (uint32_t k = 0; k < s.checkCount; ++k) {
    const WalkCheck& c = s.checks[k];
    const uint32_t from = c.bound == s.column ? candidate : bound[k], to = c.other == s.column ? candidate : other[k];
    if (!containsSorted(lookup(c.adjacency, from, false), to)) return false;
  }
  return true;
}

// Alley at one walk's step, by its whole warp (gSWORD's warp streaming):
// lane k checks candidates k, k + 32, ... and keeps one of those that pass,
// drawn uniformly (a reservoir of one); the warp then keeps lane k's with
// chance its survivors over all survivors, so each survivor is drawn with
// chance one over their number. Every lane calls it with the walk's lane
// as `owner`; returns the survivors, and in `chosen` (on the owner) the one drawn.
__device__ inline uint32_t scanTogether(const WalkStep* steps, const Scan& mine, const uint32_t* row, uint32_t owner,
                                        uint64_t& random, uint32_t& chosen) {
  const uint32_t lane = threadIdx.x % 32;
  const uint32_t at = __shfl_sync(kFullMask, mine.step, owner);
  const WalkStep& s = steps[at];
  const auto data = reinterpret_cast<const uint32_t*>(
      __shfl_sync(kFullMask, reinterpret_cast<unsigned long long>(mine.candidates.data), owner));
  const uint32_t size = __shfl_sync(kFullMask, mine.candidates.size, owner);
  uint32_t bound[kMaxChecks], other[kMaxChecks];
  for (uint32_t k = 0; k < s.checkCount; ++k) {
    bound[k] = __shfl_sync(kFullMask, row[s.checks[k].bound], owner);
    other[k] = __shfl_sync(kFullMask, row[s.checks[k].other], owner);
  }
  uint32_t kept = 0, mineKept = 0;
  for (uint32_t i = lane; i < size; i += 32) {
    if (passes(s, data[i], bound, other) && below(random, ++kept) == 0) mineKept = data[i];
  }
  uint32_t before = kept;  // survivors of lanes up to this one
  for (int offset = 1; offset < 32; offset *= 2) {
    const uint32_t earlier = __shfl_up_sync(kFullMask, before, offset);
    if (lane >= static_cast<uint32_t>(offset)) before += earlier;
  }
  const uint32_t total = __shfl_sync(kFullMask, before, 31);
  const uint32_t draw = __shfl_sync(kFullMask, total > 0 ? below(random, total) : 0, owner);
  const int drawer = __ffs(__ballot_sync(kFullMask, total > 0 && draw < before && draw >= before - kept)) - 1;
  const uint32_t drawn = __shfl_sync(kFullMask, mineKept, drawer < 0 ? 0 : drawer);
  if (lane == owner) chosen = drawn;
  return total;
}

// What a lane's walks leave at each step: the sums of their weights, of
// the squares, of the candidates drawn from, and the survivors.
struct LaneSums {
  double weights[kMaxColumns] = {}, squares[kMaxColumns] = {}, drawn[kMaxColumns] = {};
  uint32_t survivors[kMaxColumns] = {};

  __device__ void add(uint32_t i, double weight) {
    weights[i] += weight;
    squares[i] += weight * weight;
    survivors[i] += weight > 0;
  }

  // The warp's sums, one atomic per step and sum (all lanes call it).
  __device__ void addTo(StepSums* sums, uint32_t stepCount) const {
    for (uint32_t k = 0; k < stepCount; ++k) {
      const double total = warpSum(weights[k]), squared = warpSum(squares[k]), candidates = warpSum(drawn[k]);
      unsigned survived = survivors[k];
      for (int offset = 16; offset > 0; offset /= 2) survived += __shfl_down_sync(kFullMask, survived, offset);
      if (threadIdx.x % 32 == 0) {
        atomicAdd(&sums[k].weight, total);
        atomicAdd(&sums[k].weightSquared, squared);
        atomicAdd(&sums[k].candidates, candidates);
        atomicAdd(&sums[k].survivors, static_cast<unsigned long long>(survived));
      }
    }
  }
};

// Wander Join's step i of a lane's walk: draws a candidate and checks it;
// returns the walk's weight after the step (0: it died).
__device__ inline double wanderStep(const WalkStep* steps, uint32_t i, uint32_t stepCount, uint32_t* row,
                                    uint64_t& random, double weight, LaneSums& sums) {
  const WalkStep& s = steps[i];
  if (s.fromEdges) {
    weight = s.edgeCount;  // bound with the seed: the seed's keys times the edges' share of each
  } else if (i + 1 < stepCount && steps[i + 1].fromEdges) {
    drawEdge(steps[i + 1], s.column, row, random);
    weight = s.driver.keyCount;
  } else {
    weight *= choose(s, row, random);
  }
  sums.drawn[i] += weight;
  return weight > 0 && checksHold(s, row) ? weight : 0;
}

// gSWORD's streaming: a grid that fits the device at once, each lane taking
// walks lane, lane + lanes, ... one after another, each to its end or its
// death, so that a lane whose walk dies starts the next at once instead of
// idling through the steps left. Where Alley scans (kTogether, gSWORD's
// warp streaming), the lanes of a warp take one step each per round,
// together, so that at an Alley step the warp scans the candidates of each
// walk there together (scanTogether) instead of one lane scanning thousands
// while the others wait; Wander Join's lanes go their own pace (the rounds
// cost its walks a third of their rate at 2^24 walks). A lane sums what its
// walks leave at each step; warps add their lanes' sums with one atomic per
// step at the end. Plan blockIdx.y's steps and their sums: steps[first, first + count).
struct PlanSteps {
  uint32_t first = 0, count = 0;
};

template <bool kTogether>
__global__ void walk(const WalkStep* allSteps, const PlanSteps* plans, uint32_t walks, uint64_t seed,
                     StepSums* allSums) {
  const PlanSteps plan = plans[blockIdx.y];
  const WalkStep* steps = allSteps + plan.first;
  const uint32_t stepCount = plan.count;
  if (stepCount == 0) return;  // the whole block: its plan has no step the walks take
  const uint32_t lane = blockIdx.x * blockDim.x + threadIdx.x, lanes = gridDim.x * blockDim.x;
  uint64_t random = seed ^ (0xD1B54A32D192ED03ull * (lane + 1));
  splitMix(random);
  uint32_t row[kMaxColumns] = {};  // read by the warp's scans before a walk binds it
  LaneSums sums;
  if constexpr (!kTogether) {
    for (uint32_t w = lane; w < walks; w += lanes) {
      double weight = 1;
      for (uint32_t i = 0; i < stepCount && weight > 0; ++i) {
        weight = wanderStep(steps, i, stepCount, row, random, weight, sums);
        sums.add(i, weight);
      }
    }
  } else {
    uint32_t w = lane, i = 0;  // the walk, and the step it takes next
    double weight = 1;
    while (__any_sync(kFullMask, w < walks)) {
      const bool active = w < walks;
      const Scan scan{i, active && steps[i].alley ? candidateList(steps[i], row) : List{}};
      const bool scans = active && steps[i].alley && scan.candidates.size <= kScanLimit;
      uint32_t passed = 0;
      for (unsigned owners = __ballot_sync(kFullMask, scans); owners != 0; owners &= owners - 1) {
        const uint32_t owner = __ffs(owners) - 1;
        const uint32_t total = scanTogether(steps, scan, row, owner, random, row[steps[i].column]);
        if (threadIdx.x % 32 == owner) passed = total;
      }
      if (!active) continue;
      if (scans) {
        sums.drawn[i] += weight * scan.candidates.size;
        weight *= passed;
      } else {
        weight = wanderStep(steps, i, stepCount, row, random, weight, sums);
      }
      sums.add(i, weight);
      if (weight > 0 && i + 1 < stepCount) {
        ++i;
      } else {
        w += lanes, i = 0, weight = 1;
      }
    }
  }
  sums.addTo(allSums + plan.first, stepCount);
}

// The blocks of kWalkThreads the device runs at once, at most those `walks` need.
template <bool kTogether>
uint32_t walkBlocks(uint32_t walks) {
  static const uint32_t resident = [] {
    int device = 0, processors = 0, perProcessor = 0;
    GSPARQL_CUDA(cudaGetDevice(&device));
    GSPARQL_CUDA(cudaDeviceGetAttribute(&processors, cudaDevAttrMultiProcessorCount, device));
    GSPARQL_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perProcessor, walk<kTogether>, kWalkThreads, 0));
    return static_cast<uint32_t>(std::max(1, processors * perProcessor));
  }();
  return std::min(resident, (walks + kWalkThreads - 1) / kWalkThreads);
}

template <bool kTogether>
void launchWalks(const DevicePool& pool, const WalkStep* steps, const PlanSteps* plans, uint32_t planCount,
                 const WalkOptions& options, StepSums* sums) {
  const dim3 grid(walkBlocks<kTogether>(options.walks), planCount);
  walk<kTogether><<<grid, kWalkThreads, 0, pool.stream()>>>(steps, plans, options.walks, options.seed, sums);
}

bool walkable(const PlanStep& step, const BoundBgp& bgp) {
  if (!WalkSample::canTake(step) || !step.predicateVertexChecks.empty() || step.checks.size() > kMaxChecks) return false;
  const auto constantPredicate = [&](const EdgeUse& use) { return !bgp.edges[use.edge].predicateIsVariable; };
  const bool driven = step.source == CandidateSource::Neighbours || step.source == CandidateSource::PredicateKeys;
  return (!driven || constantPredicate(step.driver)) &&
         std::all_of(step.checks.begin(), step.checks.end(), constantPredicate);
}

// `sets`: where a step drawing from a set of constants keeps its upload until the walks end.
WalkStep walkStep(GraphCache& cache, const GraphStore& store, const PlanStep& step, const BoundBgp& bgp,
                  DevicePool& pool, std::vector<DeviceArray<uint32_t>>& sets) {
  WalkStep s;
  s.column = step.vertex;
  const BoundEdge* driver = &bgp.edges[step.driver.edge];
  switch (step.source) {
    case CandidateSource::Constant:
      s.source = Source::Constant;
      s.constant = bgp.vertices[step.vertex].id;
      break;
    case CandidateSource::Constants: {
      const std::vector<uint32_t>& constants = bgp.vertices[step.vertex].constants;
      sets.push_back(toDevice(pool, std::span<const uint32_t>(constants)));
      s.source = Source::Keys;
      s.driver.keys = sets.back().data();
      s.driver.keyCount = static_cast<uint32_t>(constants.size());
      break;
    }
    case CandidateSource::AllVertices:
      s.source = Source::AllVertices;
      s.vertexCount = static_cast<uint32_t>(store.catalog().vertexCount);
      break;
    case CandidateSource::PredicateKeys:
      s.source = Source::Keys;
      s.driver = cache.get(store, step.driver.direction, driver->predicate);
      break;
    case CandidateSource::Neighbours:
      s.source = Source::Neighbours;
      s.driver = cache.get(store, step.driver.direction, driver->predicate);
      s.driverColumn = step.driver.boundVertex;
      break;
  }
  for (const EdgeUse& use : step.checks) {
    const BoundEdge& e = bgp.edges[use.edge];
    const uint32_t other = e.from == use.boundVertex ? e.to : e.from;
    s.checks[s.checkCount++] = {cache.get(store, use.direction, e.predicate), use.boundVertex,
                                use.boundVertex == step.vertex ? other : step.vertex};
  }
  return s;
}

// The edges of the adjacency a seed's keys are drawn from (the host's copy
// says how many: the device's offsets are not read back).
uint64_t edgesOf(const GraphStore& store, const PlanStep& seed, const BoundBgp& bgp) {
  return store.adjacency(seed.driver.direction).predicate(bgp.edges[seed.driver.edge].predicate).edgeCount();
}

}  // namespace

std::vector<std::vector<StepEstimate>> wanderJoin(DevicePool& pool, GraphCache& cache,
                                                  std::span<const ComponentPlan> plans, const BoundBgp& bgp,
                                                  const GraphStore& store, const WalkOptions& options) {
  std::vector<WalkStep> steps;
  std::vector<PlanSteps> slices;
  std::vector<DeviceArray<uint32_t>> sets;
  for (const ComponentPlan& plan : plans) {
    PlanSteps slice{static_cast<uint32_t>(steps.size()), 0};
    for (const PlanStep& step : plan.steps) {
      if (!walkable(step, bgp) || bgp.columnCount() > kMaxColumns) break;
      steps.push_back(walkStep(cache, store, step, bgp, pool, sets));
      if (slice.count == 1 && WalkSample::drawSeedEdges(plan.steps[0], step, bgp)) {
        const uint64_t edges = edgesOf(store, plan.steps[0], bgp);
        steps.back().fromEdges = edges > 0 && edges <= UINT32_MAX;
        steps.back().edgeCount = static_cast<uint32_t>(edges);
      }
      // As the CPU's (WalkSample::intersects): a list's candidates, checked, not drawn with the seed.
      steps.back().alley = options.alley && steps.back().checkCount > 0 && !steps.back().fromEdges &&
                           steps.back().source != Source::Constant && steps.back().source != Source::AllVertices;
      ++slice.count;
    }
    slices.push_back(slice);
  }
  std::vector<std::vector<StepEstimate>> estimates(plans.size());
  if (steps.empty() || options.walks == 0) return estimates;
  const DeviceArray<WalkStep> deviceSteps = toDevice(pool, std::span<const WalkStep>(steps));
  const DeviceArray<PlanSteps> deviceSlices = toDevice(pool, std::span<const PlanSteps>(slices));
  DeviceArray<StepSums> sums(pool, steps.size());
  GSPARQL_CUDA(cudaMemsetAsync(sums.data(), 0, sums.bytes(), pool.stream()));
  const bool together = std::any_of(steps.begin(), steps.end(), [](const WalkStep& s) { return s.alley; });
  const auto planCount = static_cast<uint32_t>(plans.size());
  if (together) {
    launchWalks<true>(pool, deviceSteps.data(), deviceSlices.data(), planCount, options, sums.data());
  } else {
    launchWalks<false>(pool, deviceSteps.data(), deviceSlices.data(), planCount, options, sums.data());
  }
  GSPARQL_CUDA(cudaGetLastError());
  const std::vector<StepSums> all = sums.download();
  const double n = options.walks;
  for (size_t p = 0; p < plans.size(); ++p) {
    for (uint32_t i = 0; i < slices[p].count; ++i) {
      const StepSums& s = all[slices[p].first + i];
      StepEstimate e;
      e.rows = s.weight / n;
      e.candidates = s.candidates / n;
      e.survivors = s.survivors;
      if (e.rows > 0) e.relativeError = std::sqrt(std::max(0.0, s.weightSquared / n - e.rows * e.rows) / n) / e.rows;
      estimates[p].push_back(e);
    }
  }
  return estimates;
}

}  // namespace gsparql::engine::gpu
