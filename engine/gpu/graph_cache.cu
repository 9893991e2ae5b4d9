#include "engine/gpu/graph_cache.cuh"

#include <chrono>

#include "engine/bgp/bound_bgp.h"
#include "engine/gpu/all_predicates_adjacency.h"
#include "engine/gpu/join_kernels.cuh"
#include "storage/graph_store.h"

namespace gsparql::engine::gpu {

bool GraphCache::evictable(const Entry& e) const {
  const bool inFlight =
      e.upload && e.upload->milliseconds.wait_for(std::chrono::seconds(0)) != std::future_status::ready;
  if (inFlight || e.holds > 0) return false;
  return e.isRange || e.lastUse != epoch_;  // never what the running query uses whole
}

void GraphCache::evictFor(uint64_t bytes) {
  while (used_ + bytes > budget_) {
    auto victim = entries_.end();
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (!evictable(it->second)) continue;
      if (victim == entries_.end() || it->second.lastUse < victim->second.lastUse) victim = it;
    }
    if (victim == entries_.end()) return;  // everything is in use: go over budget rather than fail
    used_ -= victim->second.bytes;
    entries_.erase(victim);
  }
}

void GraphCache::evictIdle() {
  std::erase_if(entries_, [&](const auto& item) {
    if (!evictable(item.second)) return false;
    used_ -= item.second.bytes;
    return true;
  });
}

// Kinds of entries besides a predicate's adjacency in one direction (0 and 1).
constexpr uint32_t kAllPredicatesKind = 2;  // + direction
constexpr uint32_t kPredicateVerticesKind = 4;
constexpr uint32_t kRangeKind = 5;  // + direction

template <typename Upload>
GraphCache::Entry& GraphCache::cached(uint64_t source, uint32_t kind, uint32_t predicate, Upload upload,
                                      uint64_t range) {
  if (lastQueryEpoch_ != epoch_) {
    lastQueryEpoch_ = epoch_;
    uploadedThisQuery_ = 0;
  }
  Key key{source, kind, predicate, range};
  auto it = entries_.find(key);
  if (it == entries_.end()) {
    Entry e;
    try {
      upload(e);
    } catch (const DeviceOutOfMemory&) {
      // Room the cache's budget allowed but the device does not have: make
      // it from entries this query does not use, then try once more.
      e = Entry();
      evictIdle();
      upload(e);
    }
    evictFor(e.bytes);
    used_ += e.bytes;
    uploadedThisQuery_ += e.bytes;
    it = entries_.emplace(key, std::move(e)).first;
  }
  it->second.lastUse = epoch_;
  return it->second;
}

GraphCache::Entry& GraphCache::entry(const GraphStore& store, pcsr::Direction direction, uint32_t predicate) {
  return cached(store.adjacency(direction).source(predicate), static_cast<uint32_t>(direction), predicate, [&](Entry& e) {
    const PredicateAdjacency& host = store.adjacency(direction).predicate(predicate);
    e.groups = toDevice(pool_, host.groups());
    e.groupNeighbours = toDevice(pool_, host.groupNeighbours());
    e.keys = toDevice(pool_, host.keys());
    e.offsets = toDevice(pool_, host.offsets());
    e.neighbours = toDevice(pool_, host.neighbours());
    e.bytes = e.groups.bytes() + e.groupNeighbours.bytes() + e.keys.bytes() + e.offsets.bytes() + e.neighbours.bytes();
    e.view = {e.groups.data(), e.groupNeighbours.data(), e.keys.data(), e.offsets.data(), e.neighbours.data(),
              host.section().keyCount, host.primaryGroups()};
  });
}

DeviceAllPredicates GraphCache::allPredicates(const GraphStore& store, pcsr::Direction direction,
                                              const BoundBgp& bgp) {
  const uint32_t kind = kAllPredicatesKind + static_cast<uint32_t>(direction);
  return cached(store.identity(), kind, bgp.graph, [&](Entry& e) {
    const AllPredicatesAdjacency host = buildAllPredicatesAdjacency(store, direction, bgp.graphPredicates);
    for (const auto* part : {&host.offsets, &host.neighbours, &host.predicates, &host.distinctOffsets,
                             &host.distinctNeighbours, &host.keyStarts, &host.keys}) {
      e.arrays.push_back(toDevice(pool_, std::span<const uint32_t>(*part)));
      e.bytes += e.arrays.back().bytes();
    }
    e.allView = {e.arrays[0].data(), e.arrays[1].data(), e.arrays[2].data(), e.arrays[3].data(),
                 e.arrays[4].data(), e.arrays[5].data(), e.arrays[6].data()};
  }).allView;
}

const uint32_t* GraphCache::predicateVertexIds(const GraphStore& store) {
  return cached(store.identity(), kPredicateVerticesKind, 0, [&](Entry& e) {
    const std::vector<uint32_t> host = engine::predicateVertexIds(store);
    e.arrays.push_back(toDevice(pool_, std::span<const uint32_t>(host)));
    e.bytes = e.arrays.back().bytes();
  }).arrays.front().data();
}

DeviceAdjacency GraphCache::get(const GraphStore& store, pcsr::Direction direction, uint32_t predicate) {
  return entry(store, direction, predicate).view;
}

bool GraphCache::holds(const GraphStore& store, pcsr::Direction direction, uint32_t predicate) const {
  return entries_.contains(Key{store.adjacency(direction).source(predicate), static_cast<uint32_t>(direction), predicate, 0});
}

GraphCache::Key GraphCache::rangeKey(const GraphStore& store, pcsr::Direction direction, uint32_t predicate,
                                     KeyRange range) {
  return {store.adjacency(direction).source(predicate), kRangeKind + static_cast<uint32_t>(direction), predicate,
          uint64_t{range.first} << 32 | range.end};
}

template <typename Upload>
GraphCache::Entry& GraphCache::rangeEntry(const GraphStore& store, pcsr::Direction direction, uint32_t predicate,
                                          KeyRange range, Upload upload) {
  const auto [source, kind, samePredicate, span] = rangeKey(store, direction, predicate, range);
  return cached(source, kind, samePredicate, [&](Entry& e) {
    const PredicateAdjacency& host = store.adjacency(direction).predicate(predicate);
    const uint32_t keys = range.end - range.first;
    const uint32_t neighbours = host.offsets()[range.end] - host.offsets()[range.first];
    e.isRange = true;
    e.keys = DeviceArray<uint32_t>(pool_, keys);
    e.offsets = DeviceArray<uint32_t>(pool_, keys + 1);
    e.neighbours = DeviceArray<uint32_t>(pool_, neighbours);
    e.bytes = e.keys.bytes() + e.offsets.bytes() + e.neighbours.bytes();
    e.view = {nullptr, nullptr, e.keys.data(), e.offsets.data(), e.neighbours.data(), keys, 0};
    upload(e, host);
  }, span);
}

GraphCache::Entry& GraphCache::rangeEntry(const GraphStore& store, pcsr::Direction direction, uint32_t predicate,
                                          KeyRange range) {
  return rangeEntry(store, direction, predicate, range, [&](Entry& e, const PredicateAdjacency& host) {
    // Offsets as in the file: lookups subtract the range's first one.
    const uint32_t firstNeighbour = host.offsets()[range.first];
    e.upload = stager_.start({{host.keys().data() + range.first, e.keys.data(), e.keys.bytes()},
                              {host.offsets().data() + range.first, e.offsets.data(), e.offsets.bytes()},
                              {host.neighbours().data() + firstNeighbour, e.neighbours.data(), e.neighbours.bytes()}});
    ++streamed_.ranges;
    streamed_.bytes += e.bytes;
  });
}

bool GraphCache::holdsRange(const GraphStore& store, pcsr::Direction direction, uint32_t predicate,
                            KeyRange range) const {
  return entries_.contains(rangeKey(store, direction, predicate, range));
}

DeviceAdjacency GraphCache::acquireCopy(const GraphStore& store, pcsr::Direction direction, uint32_t predicate,
                                        KeyRange range, const DeviceAdjacency& from) {
  Entry& e = rangeEntry(store, direction, predicate, range, [&](Entry& e, const PredicateAdjacency&) {
    for (const auto& [to, source, bytes] : {std::tuple{e.keys.data(), from.keys, e.keys.bytes()},
                                            std::tuple{e.offsets.data(), from.offsets, e.offsets.bytes()},
                                            std::tuple{e.neighbours.data(), from.neighbours, e.neighbours.bytes()}}) {
      GSPARQL_CUDA(cudaMemcpyAsync(to, source, bytes, cudaMemcpyDefault, pool_.stream()));
    }
  });
  ++e.holds;
  return e.view;
}

GraphCache::PackedOnDevice GraphCache::upload(const PackedLists& packed) {
  const auto start = std::chrono::steady_clock::now();
  PackedOnDevice d{toDevice(pool_, std::span<const uint32_t>(packed.keys)),
                   toDevice(pool_, std::span<const uint32_t>(packed.offsets)),
                   toDevice(pool_, std::span<const uint32_t>(packed.neighbours)), {}};
  d.view = {nullptr, nullptr, d.keys.data(), d.offsets.data(), d.neighbours.data(),
            static_cast<uint32_t>(packed.keys.size()), 0};
  // Copied while the query waits: both copy time and time waited.
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  streamed_.copyMilliseconds += ms;
  streamed_.waitedMilliseconds += ms;
  ++streamed_.packed;
  streamed_.packedBytes += packed.bytes();
  uploadedThisQuery_ += packed.bytes();
  return d;
}

void GraphCache::prefetch(const GraphStore& store, pcsr::Direction direction, uint32_t predicate, KeyRange range) {
  rangeEntry(store, direction, predicate, range);
}

DeviceAdjacency GraphCache::acquire(const GraphStore& store, pcsr::Direction direction, uint32_t predicate,
                                    KeyRange range) {
  Entry& e = rangeEntry(store, direction, predicate, range);
  if (e.upload) {
    streamed_.waitedMilliseconds += stager_.await(*e.upload);
    streamed_.copyMilliseconds += e.upload->milliseconds.get();
    e.upload.reset();
  }
  ++e.holds;
  return e.view;
}

void GraphCache::release(const GraphStore& store, pcsr::Direction direction, uint32_t predicate, KeyRange range) {
  --rangeEntry(store, direction, predicate, range).holds;
}

const uint32_t* GraphCache::keyBits(const GraphStore& store, pcsr::Direction direction, uint32_t predicate) {
  Entry& e = entry(store, direction, predicate);
  // Over this snapshot's vertices: an entry a later snapshot shares (its
  // predicate unchanged) is probed with the vertices its delta added.
  const uint64_t words = (store.catalog().vertexCount + 31) / 32;
  if (e.keyBits.size() < words) {
    e.bytes -= e.keyBits.bytes();
    used_ -= e.keyBits.bytes();
    e.keyBits = DeviceArray<uint32_t>(pool_, words);
    GSPARQL_CUDA(cudaMemsetAsync(e.keyBits.data(), 0, e.keyBits.bytes(), pool_.stream()));
    launchSetBits(e.view.keys, e.view.keyCount, e.keyBits.data(), pool_.stream());
    e.bytes += e.keyBits.bytes();
    used_ += e.keyBits.bytes();
  }
  return e.keyBits.data();
}

}  // namespace gsparql::engine::gpu
