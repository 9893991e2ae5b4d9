#pragma once
// Device-side building blocks of a join step: adjacency lookups and probes.
#include <cstdint>

#include "engine/gpu/graph_cache.cuh"
#include "storage/pcsr_format.h"

namespace gsparql::engine::gpu {

struct List {
  const uint32_t* data = nullptr;
  uint32_t size = 0;
};

constexpr uint32_t kFullMask = 0xFFFFFFFFu;

// PCSR: one 128-byte group (eight 16-byte loads), rarely an overflow chain.
__device__ inline List lookupPcsr(const DeviceAdjacency& a, uint32_t v) {
  if (a.keyCount == 0) return {};
  uint32_t g = pcsr::primaryGroupOf(v, a.primaryGroups);
  while (g != pcsr::kNone) {
    uint32_t w[32];
    const uint4* line = reinterpret_cast<const uint4*>(a.groups[g].words);
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      uint4 q = line[i];
      w[4 * i] = q.x, w[4 * i + 1] = q.y, w[4 * i + 2] = q.z, w[4 * i + 3] = q.w;
    }
#pragma unroll
    for (int s = 0; s < 15; ++s) {
      if (w[2 * s] == v) {
        uint32_t end = (s == 14 || w[2 * s + 2] == pcsr::kNone) ? w[31] : w[2 * s + 3];
        return {a.groupNeighbours + w[2 * s + 1], end - w[2 * s + 1]};
      }
    }
    g = w[30];
  }
  return {};
}

// Plain CSR: binary search over the sorted keys (the ablation baseline, and
// a streamed key range, whose offsets start at its first key's).
__device__ inline List lookupCsr(const DeviceAdjacency& a, uint32_t v) {
  uint32_t lo = 0, hi = a.keyCount;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (a.keys[mid] < v) lo = mid + 1; else hi = mid;
  }
  if (lo == a.keyCount || a.keys[lo] != v) return {};
  return {a.neighbours + (a.offsets[lo] - a.offsets[0]), a.offsets[lo + 1] - a.offsets[lo]};
}

__device__ inline List lookup(const DeviceAdjacency& a, uint32_t v, bool plainCsr) {
  return plainCsr || a.groups == nullptr ? lookupCsr(a, v) : lookupPcsr(a, v);
}

__device__ inline bool containsSorted(List list, uint32_t x) {
  uint32_t lo = 0, hi = list.size;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    uint32_t m = list.data[mid];
    if (m == x) return true;
    if (m < x) lo = mid + 1; else hi = mid;
  }
  return false;
}

// First index in [lo, hi) whose value is not below (Strict: above) x.
template <bool Strict>
__device__ inline uint32_t boundIn(const uint32_t* values, uint32_t lo, uint32_t hi, uint32_t x) {
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (Strict ? values[mid] <= x : values[mid] < x) lo = mid + 1; else hi = mid;
  }
  return lo;
}

__device__ inline List distinctNeighboursOf(const DeviceAllPredicates& a, uint32_t v) {
  return {a.distinctNeighbours + a.distinctOffsets[v], a.distinctOffsets[v + 1] - a.distinctOffsets[v]};
}

// The predicates of the edges from `from` to `to`, ascending.
__device__ inline List predicatesBetween(const DeviceAllPredicates& a, uint32_t from, uint32_t to) {
  const uint32_t lo = boundIn<false>(a.neighbours, a.offsets[from], a.offsets[from + 1], to);
  const uint32_t hi = boundIn<true>(a.neighbours, lo, a.offsets[from + 1], to);
  return {a.predicates + lo, hi - lo};
}

__device__ inline List keysOfPredicate(const DeviceAllPredicates& a, uint32_t p) {
  return {a.keys + a.keyStarts[p], a.keyStarts[p + 1] - a.keyStarts[p]};
}

__device__ inline bool bitSet(const uint32_t* bits, uint32_t v) {
  return bits == nullptr || (bits[v >> 5] >> (v & 31)) & 1u;
}

// Index of the segment containing position `x`, for ascending `starts[0..n]`.
__device__ inline uint32_t segmentOf(const uint32_t* starts, uint32_t n, uint32_t x) {
  uint32_t lo = 0, hi = n;
  while (lo + 1 < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (starts[mid] <= x) lo = mid; else hi = mid;
  }
  return lo;
}

}  // namespace gsparql::engine::gpu
