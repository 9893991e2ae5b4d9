#include "engine/gpu/streaming_plan.h"

#include <algorithm>

#include "storage/adjacency.h"

namespace gsparql::engine::gpu {

uint64_t rangeBytes(const PredicateAdjacency& adjacency, KeyRange range) {
  const auto offsets = adjacency.offsets();
  const uint64_t keys = range.end - range.first;
  return sizeof(uint32_t) * (keys + keys + 1 + (offsets[range.end] - offsets[range.first]));
}

uint64_t wholeBytes(const PredicateAdjacency& adjacency) { return adjacency.dataBytes(); }

std::vector<KeyRange> keyRanges(const PredicateAdjacency& adjacency, uint64_t maxBytes) {
  const uint32_t keyCount = adjacency.keyCount();
  std::vector<KeyRange> ranges;
  for (uint32_t first = 0; first < keyCount;) {
    // The first ranges are an eighth, a quarter, a half of the rest: the
    // query waits for the first alone, and works on each while the next,
    // twice as large, uploads.
    const uint64_t fits = std::max<uint64_t>(1, maxBytes >> (3 - std::min<size_t>(3, ranges.size())));
    // The bytes grow with the end: the last end that fits, by bisection.
    uint32_t lo = first + 1, hi = keyCount;
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo + 1) / 2;
      if (rangeBytes(adjacency, {first, mid}) <= fits) lo = mid; else hi = mid - 1;
    }
    ranges.push_back({first, lo});
    first = lo;
  }
  return ranges;
}

std::optional<PackedLists> packLists(const PredicateAdjacency& adjacency, std::vector<uint32_t> values,
                                     uint64_t maxBytes) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  const std::span<const uint32_t> keys = adjacency.keys();
  PackedLists packed;
  packed.offsets.push_back(0);
  for (auto key = keys.begin(); const uint32_t v : values) {
    key = std::lower_bound(key, keys.end(), v);  // values ascend: search on from the last one
    if (key == keys.end()) break;
    if (*key != v) continue;
    const std::span<const uint32_t> list = adjacency.neighboursAt(key - keys.begin());
    if (packed.bytes() + sizeof(uint32_t) * (list.size() + 2) > maxBytes) return std::nullopt;
    packed.keys.push_back(v);
    packed.neighbours.insert(packed.neighbours.end(), list.begin(), list.end());
    packed.offsets.push_back(static_cast<uint32_t>(packed.neighbours.size()));
  }
  return packed;
}

StreamingPlan planStreaming(std::vector<AdjacencyUse> uses, uint64_t cacheBytes) {
  uint64_t total = 0;
  for (const AdjacencyUse& u : uses) total += u.bytes;
  StreamingPlan plan;
  if (total <= cacheBytes) return plan;
  std::sort(uses.begin(), uses.end(), [](const AdjacencyUse& a, const AdjacencyUse& b) { return a.bytes > b.bytes; });
  for (const AdjacencyUse& u : uses) {
    if (total <= cacheBytes / 2) break;
    plan.streamed.insert(u.id);
    plan.streamedBytes += u.bytes;
    total -= u.bytes;
  }
  // Small enough for the pieces to overlap their upload with kernels, large
  // enough that a range is not mostly per-copy overhead.
  constexpr uint64_t kLeastPartitionBytes = uint64_t{16} << 10;
  plan.partitionBytes = std::max(kLeastPartitionBytes, cacheBytes / 4 / plan.streamed.size());
  return plan;
}

}  // namespace gsparql::engine::gpu
