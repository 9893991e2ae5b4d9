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

// The first i < count where broken(i), in parallel blocks. Isolated like
// crc32UpdateParallel: the caller holds AdjacencyFile's first-use lock.
template <typename Broken>
std::optional<size_t> firstBroken(size_t count, const Broken& broken) {
  constexpr size_t kGrain = size_t{1} << 16;
  // The first broken index of [begin, end) before `found`, else `found`.
  auto scan = [&](size_t begin, size_t end, size_t found) {
    for (size_t i = begin; i < std::min(end, found); ++i) {
      if (broken(i)) return i;
    }
    return found;
  };
  // Most predicates are small: waking threads would cost more than the scan.
  size_t first = count <= kGrain ? scan(0, count, count) : tbb::this_task_arena::isolate([&] {
    return tbb::parallel_reduce(
        tbb::blocked_range<size_t>(0, count, kGrain), count,
        [&](const tbb::blocked_range<size_t>& range, size_t found) { return scan(range.begin(), range.end(), found); },
        [](size_t a, size_t b) { return std::min(a, b); });
  });
  if (first == count) return std::nullopt;
  return first;
}

template <typename T, typename Broken>
std::optional<Corruption> firstBrokenElement(std::span<const T> array, uint64_t arrayOffset, const Broken& broken,
                                             const char* what) {
  auto index = firstBroken(array.size(), broken);
  if (!index) return std::nullopt;
  return Corruption{arrayOffset + *index * sizeof(T), what};
}

std::optional<Corruption> firstNonVertex(std::span<const uint32_t> ids, uint64_t arrayOffset, uint64_t vertexCount) {
  return firstBrokenElement(ids, arrayOffset, [&](size_t i) { return ids[i] >= vertexCount; },
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

uint32_t adjacencyChecksum(const PredicateAdjacency& a, uint32_t version) {
  const std::initializer_list<std::span<const std::byte>> arrays = {
      std::as_bytes(a.keys()), std::as_bytes(a.offsets()), std::as_bytes(a.neighbours()), std::as_bytes(a.groups()),
      std::as_bytes(a.groupNeighbours())};
  if (version >= 3) return sectionSum(arrays);
  uint32_t crc = 0;
  for (std::span<const std::byte> bytes : arrays) crc = crc32UpdateParallel(crc, bytes);
  return crc;
}

std::optional<Corruption> findCorruption(const PredicateAdjacency& a, uint64_t vertexCount) {
  const pcsr::PredicateSection& s = a.section();
  const auto keys = a.keys();
  const auto offsets = a.offsets();
  const auto groups = a.groups();
  if (auto c = firstBrokenElement(keys, s.keysOffset, [&](size_t i) {
        return keys[i] >= vertexCount || (i > 0 && keys[i - 1] >= keys[i]);
      }, "keys out of order or not vertex ids")) {
    return c;
  }
  if (auto c = firstBrokenElement(offsets, s.offsetsOffset, [&](size_t i) {
        if (i == 0) return offsets[0] != 0;
        const bool last = i == s.keyCount;
        return offsets[i] <= offsets[i - 1] || offsets[i] - offsets[i - 1] > s.maxDegree ||
               (last && offsets[i] != s.edgeCount);
      }, "offsets out of order or out of range")) {
    return c;
  }
  if (auto c = firstNonVertex(a.neighbours(), s.neighboursOffset, vertexCount)) return c;
  if (auto c = firstBrokenElement(groups, s.groupsOffset, [&](size_t g) {
        return groupBroken(groups[g], static_cast<uint32_t>(g), s, vertexCount);
      }, "group slots or chain out of range")) {
    return c;
  }
  return firstNonVertex(a.groupNeighbours(), s.groupNeighboursOffset, vertexCount);
}

}  // namespace gsparql
