#include "engine/gpu/streamed_adjacency.cuh"

#include <algorithm>
#include <cstdio>

namespace gsparql::engine::gpu {

StreamedAdjacency::StreamedAdjacency(Device& device, const GraphStore& store, StreamingPlan plan)
    : device_(device), store_(store), plan_(std::move(plan)), peers_(device_.peersFor(plan_, store_)) {}

// Ranges from the homes are copied on the query's stream when a pass needs them
// (a device-to-device copy): nothing to start early.
void StreamedAdjacency::prefetchFirstRange(AdjacencyId id) {
  if (peers_ != nullptr) return;
  const std::vector<KeyRange>& ranges = rangesOf(id);
  if (!ranges.empty()) device_.cache().prefetch(store_, id.first, id.second, ranges.front());
}

std::string StreamedAdjacency::note() const {
  if (!any()) return "";
  const std::string streamed = std::to_string(plan_.streamed.size()) + " adjacency(s) ";
  const StreamedRanges& r = device_.cache().streamedThisQuery();
  if (peers_ != nullptr) {
    const auto& p = peerReads_;
    return streamed + "read from the GPUs' homes (peer_ranges.cuh): " + std::to_string(p.copied) + " range(s) of " +
           std::to_string(p.copiedBytes) + " bytes copied from their homes, " + std::to_string(p.fromAnotherGpu) +
           " from another GPU; " + std::to_string(p.uploaded) + " range(s) of " + std::to_string(p.uploadedBytes) +
           " bytes uploaded to their homes, " + std::to_string(r.packed) + " packed list set(s) of " +
           std::to_string(r.packedBytes) + " bytes; ";
  }
  char times[96];
  std::snprintf(times, sizeof times, "copies took %.3f ms, the query waited %.3f ms for them; ", r.copyMilliseconds,
                r.waitedMilliseconds);
  return streamed + "streamed in key ranges of at most " + std::to_string(plan_.partitionBytes) + " bytes: " +
         std::to_string(r.ranges) + " range(s) of " + std::to_string(r.bytes) + " bytes and " +
         std::to_string(r.packed) + " packed list set(s) of " + std::to_string(r.packedBytes) + " bytes uploaded, " +
         times;
}

// From the device's cache where it holds the range; else copied into the
// cache from its home (over NVLink where the home is another GPU).
DeviceAdjacency StreamedAdjacency::acquire(AdjacencyId id, KeyRange range) {
  GraphCache& cache = device_.cache();
  if (peers_ == nullptr || cache.holdsRange(store_, id.first, id.second, range)) {
    return cache.acquire(store_, id.first, id.second, range);
  }
  const PeerRange home = peers_->acquire(store_, id, range);
  const DeviceAdjacency copy = cache.acquireCopy(store_, id.first, id.second, range, home.view);
  peers_->release(store_, id, range, device_.pool().stream());  // once the copy has left the home
  ++peerReads_.copied;
  peerReads_.copiedBytes += rangeBytes(store_.adjacency(id.first).predicate(id.second), range);
  peerReads_.fromAnotherGpu += home.home != device_.options().device;
  peerReads_.uploaded += home.uploadedBytes > 0;
  peerReads_.uploadedBytes += home.uploadedBytes;
  return copy;
}

void StreamedAdjacency::release(AdjacencyId id, KeyRange range) {
  device_.cache().release(store_, id.first, id.second, range);
}

std::vector<uint32_t> StreamedAdjacency::keysOnHost(const uint32_t* keys, uint32_t rows) const {
  std::vector<uint32_t> values(rows);
  GSPARQL_CUDA(cudaMemcpyAsync(values.data(), keys, rows * sizeof(uint32_t), cudaMemcpyDeviceToHost,
                               device_.pool().stream()));
  device_.pool().synchronize();
  return values;
}

const std::vector<KeyRange>& StreamedAdjacency::rangesOf(AdjacencyId id) {
  auto it = ranges_.find(id);
  if (it == ranges_.end()) {
    const PredicateAdjacency& host = store_.adjacency(id.first).predicate(id.second);
    it = ranges_.emplace(id, peers_ ? peers_->ranges(host) : keyRanges(host, plan_.partitionBytes)).first;
  }
  return it->second;
}

std::vector<KeyRange> StreamedAdjacency::rangesHolding(AdjacencyId id, const std::vector<uint32_t>& values) {
  const std::vector<KeyRange>& ranges = rangesOf(id);
  const std::span<const uint32_t> sortedKeys = store_.adjacency(id.first).predicate(id.second).keys();
  std::vector<bool> holds(ranges.size(), false);
  for (uint32_t v : values) {
    // The last range whose first key is not above v.
    const auto after = std::upper_bound(ranges.begin(), ranges.end(), v, [&](uint32_t x, const KeyRange& r) {
      return x < sortedKeys[r.first];
    });
    if (after != ranges.begin()) holds[after - ranges.begin() - 1] = true;
  }
  std::vector<KeyRange> out;
  for (size_t i = 0; i < ranges.size(); ++i) {
    if (holds[i]) out.push_back(ranges[i]);
  }
  return out;
}

}  // namespace gsparql::engine::gpu
