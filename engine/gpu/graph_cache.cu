#include "engine/gpu/graph_cache.cuh"

#include "engine/gpu/join_kernels.cuh"
#include "storage/graph_store.h"

namespace gsparql::engine::gpu {
namespace {

template <typename T>
DeviceArray<T> uploaded(DevicePool& pool, std::span<const T> host) {
  DeviceArray<T> device(pool, host.size());
  if (!host.empty()) device.upload(host.data(), host.size());
  return device;
}

}  // namespace

void GraphCache::evictFor(uint64_t bytes) {
  while (used_ + bytes > budget_) {
    auto victim = entries_.end();
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->second.lastUse == epoch_) continue;  // in use by the running query
      if (victim == entries_.end() || it->second.lastUse < victim->second.lastUse) victim = it;
    }
    if (victim == entries_.end()) return;  // everything is in use: go over budget rather than fail
    used_ -= victim->second.bytes;
    entries_.erase(victim);
  }
}

GraphCache::Entry& GraphCache::entry(const GraphStore& store, pcsr::Direction direction, uint32_t predicate) {
  if (lastQueryEpoch_ != epoch_) {
    lastQueryEpoch_ = epoch_;
    uploadedThisQuery_ = 0;
  }
  Key key{store.generation().dir.string(), static_cast<uint32_t>(direction), predicate};
  auto it = entries_.find(key);
  if (it == entries_.end()) {
    const PredicateAdjacency& host = store.adjacency(direction).predicate(predicate);
    Entry e;
    e.groups = uploaded(pool_, host.groups());
    e.groupNeighbours = uploaded(pool_, host.groupNeighbours());
    e.keys = uploaded(pool_, host.keys());
    e.offsets = uploaded(pool_, host.offsets());
    e.neighbours = uploaded(pool_, host.neighbours());
    e.bytes = e.groups.bytes() + e.groupNeighbours.bytes() + e.keys.bytes() + e.offsets.bytes() + e.neighbours.bytes();
    e.view = {e.groups.data(), e.groupNeighbours.data(), e.keys.data(), e.offsets.data(), e.neighbours.data(),
              host.section().keyCount};
    evictFor(e.bytes);
    used_ += e.bytes;
    uploadedThisQuery_ += e.bytes;
    it = entries_.emplace(key, std::move(e)).first;
  }
  it->second.lastUse = epoch_;
  return it->second;
}

DeviceAdjacency GraphCache::get(const GraphStore& store, pcsr::Direction direction, uint32_t predicate) {
  return entry(store, direction, predicate).view;
}

const uint32_t* GraphCache::keyBits(const GraphStore& store, pcsr::Direction direction, uint32_t predicate) {
  Entry& e = entry(store, direction, predicate);
  if (e.keyBits.size() == 0) {
    const uint64_t words = (store.catalog().vertexCount + 31) / 32;
    e.keyBits = DeviceArray<uint32_t>(pool_, words);
    GSPARQL_CUDA(cudaMemsetAsync(e.keyBits.data(), 0, e.keyBits.bytes(), pool_.stream()));
    launchSetBits(e.view.keys, e.view.keyCount, e.keyBits.data(), pool_.stream());
    e.bytes += e.keyBits.bytes();
    used_ += e.keyBits.bytes();
  }
  return e.keyBits.data();
}

}  // namespace gsparql::engine::gpu
