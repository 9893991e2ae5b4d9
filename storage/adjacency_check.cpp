#include "storage/adjacency_check.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <initializer_list>

#include "storage/checksum.h"

namespace gsparql {
namespace {

using pcsr::kNone;
using pcsr::kSlotsPerGroup;

// The first i in [begin, end) where broken(i), in parallel blocks. Isolated
// like crc32UpdateParallel: the caller may hold a first-use lock.
template <typename Broken>
std::optional<size_t> firstBroken(size_t begin, size_t end, const Broken& broken) {
  constexpr size_t kGrain = size_t{1} << 16;
  // The first broken index of [from, to) before `found`, else `found`.
  auto scan = [&](size_t from, size_t to, size_t found) {
    for (size_t i = from; i < std::min(to, found); ++i) {
      if (broken(i)) return i;
    }
    return found;
  };
  // Most ranges are small: waking threads would cost more than the scan.
  size_t first = end - begin <= kGrain ? scan(begin, end, end) : tbb::this_task_arena::isolate([&] {
    return tbb::parallel_reduce(
        tbb::blocked_range<size_t>(begin, end, kGrain), end,
        [&](const tbb::blocked_range<size_t>& range, size_t found) { return scan(range.begin(), range.end(), found); },
        [](size_t a, size_t b) { return std::min(a, b); });
  });
  if (first == end) return std::nullopt;
  return first;
}

template <typename T, typename Broken>
std::optional<Corruption> firstBrokenElement(size_t begin, size_t end, uint64_t arrayOffset, const Broken& broken,
                                             const char* what) {
  auto index = firstBroken(begin, end, broken);
  if (!index) return std::nullopt;
  return Corruption{arrayOffset + *index * sizeof(T), what};
}

std::optional<Corruption> firstNonVertex(std::span<const uint32_t> ids, size_t begin, size_t end,
                                         uint64_t arrayOffset, uint64_t vertexCount) {
  return firstBrokenElement<uint32_t>(begin, end, arrayOffset, [&](size_t i) { return ids[i] >= vertexCount; },
                                      "neighbour is no vertex id");
}

// A group breaks the rules when a used slot follows an empty one, a slot's
// vertex is no vertex id, its list is empty, reversed, too long or past the
// edges, or the chain does not lead forward to an existing group (lookups
// follow chains until kNone; forward-only chains always end).
bool groupBroken(const pcsr::Group& group, uint32_t index, const pcsr::PredicateSection& s, uint64_t vertexCount) {
  const uint32_t* w = group.words;
  uint32_t used = 0;
  while (used < kSlotsPerGroup && w[2 * used] != kNone) ++used;
  for (uint32_t slot = used; slot < kSlotsPerGroup; ++slot) {
    if (w[2 * slot] != kNone) return true;
  }
  for (uint32_t slot = 0; slot < used; ++slot) {
    const uint32_t begin = w[2 * slot + 1];
    const uint32_t end = slot + 1 < used ? w[2 * slot + 3] : w[31];
    if (w[2 * slot] >= vertexCount || begin >= end || end > s.edgeCount || end - begin > s.maxDegree) return true;
  }
  const uint32_t next = w[30];
  return next != kNone && (used < kSlotsPerGroup || next <= index || next >= s.groupCount);
}

}  // namespace

uint32_t adjacencyChecksum(const PredicateAdjacency& adjacency, uint32_t version) {
  const UncheckedArrays& a = adjacency.unchecked();
  const std::initializer_list<std::span<const std::byte>> arrays = {
      std::as_bytes(a.keys), std::as_bytes(a.offsets), std::as_bytes(a.neighbours), std::as_bytes(a.groups),
      std::as_bytes(a.groupNeighbours)};
  if (version >= 3) return sectionSum(arrays);
  uint32_t crc = 0;
  for (std::span<const std::byte> bytes : arrays) crc = crc32UpdateParallel(crc, bytes);
  return crc;
}

std::optional<Corruption> findCorruptionIn(const UncheckedArrays& a, const pcsr::PredicateSection& s,
                                           AdjacencyArray array, size_t begin, size_t end, uint64_t vertexCount) {
  switch (array) {
    case AdjacencyArray::Keys:
      return firstBrokenElement<uint32_t>(begin, end, s.keysOffset, [&](size_t i) {
        return a.keys[i] >= vertexCount || (i > 0 && a.keys[i - 1] >= a.keys[i]);
      }, "keys out of order or not vertex ids");
    case AdjacencyArray::Offsets:
      return firstBrokenElement<uint32_t>(begin, end, s.offsetsOffset, [&](size_t i) {
        const auto& o = a.offsets;
        if (i == 0) return o[0] != 0;
        return o[i] <= o[i - 1] || o[i] - o[i - 1] > s.maxDegree || o[i] > s.edgeCount ||
               (i == s.keyCount && o[i] != s.edgeCount);
      }, "offsets out of order or out of range");
    case AdjacencyArray::Neighbours: return firstNonVertex(a.neighbours, begin, end, s.neighboursOffset, vertexCount);
    case AdjacencyArray::Groups:
      return firstBrokenElement<pcsr::Group>(begin, end, s.groupsOffset, [&](size_t g) {
        return groupBroken(a.groups[g], static_cast<uint32_t>(g), s, vertexCount);
      }, "group slots or chain out of range");
    case AdjacencyArray::GroupNeighbours:
      return firstNonVertex(a.groupNeighbours, begin, end, s.groupNeighboursOffset, vertexCount);
  }
  return std::nullopt;
}

std::optional<Corruption> findCorruption(const PredicateAdjacency& adjacency, uint64_t vertexCount) {
  const UncheckedArrays& a = adjacency.unchecked();
  const size_t sizes[kAdjacencyArrays] = {a.keys.size(), a.offsets.size(), a.neighbours.size(), a.groups.size(),
                                          a.groupNeighbours.size()};
  for (size_t i = 0; i < kAdjacencyArrays; ++i) {
    if (auto c = findCorruptionIn(a, adjacency.section(), static_cast<AdjacencyArray>(i), 0, sizes[i], vertexCount)) {
      return c;
    }
  }
  return std::nullopt;
}

}  // namespace gsparql
