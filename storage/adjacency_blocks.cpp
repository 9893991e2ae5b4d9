#include "storage/adjacency_blocks.h"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>

#include "storage/adjacency_check.h"
#include "storage/system_error.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace gsparql {
namespace {

constexpr AdjacencyArray kArrays[kAdjacencyArrays] = {AdjacencyArray::Keys, AdjacencyArray::Offsets,
                                                      AdjacencyArray::Neighbours, AdjacencyArray::Groups,
                                                      AdjacencyArray::GroupNeighbours};

uint64_t arrayBytes(const pcsr::PredicateSection& s, AdjacencyArray array) {
  switch (array) {
    case AdjacencyArray::Keys: return 4ull * s.keyCount;
    case AdjacencyArray::Offsets: return 4ull * (s.keyCount + 1ull);
    case AdjacencyArray::Neighbours:
    case AdjacencyArray::GroupNeighbours: return 4ull * s.edgeCount;
    case AdjacencyArray::Groups: return uint64_t{sizeof(pcsr::Group)} * s.groupCount;
  }
  return 0;
}

uint64_t arrayOffset(const pcsr::PredicateSection& s, AdjacencyArray array) {
  switch (array) {
    case AdjacencyArray::Keys: return s.keysOffset;
    case AdjacencyArray::Offsets: return s.offsetsOffset;
    case AdjacencyArray::Neighbours: return s.neighboursOffset;
    case AdjacencyArray::Groups: return s.groupsOffset;
    case AdjacencyArray::GroupNeighbours: return s.groupNeighboursOffset;
  }
  return 0;
}

size_t index(AdjacencyArray array) { return static_cast<size_t>(array); }

}  // namespace

SectionBlocks::SectionBlocks(const std::string& path, uint64_t vertexCount, uint32_t predicate,
                             const pcsr::PredicateSection& section, const UncheckedArrays& arrays,
                             std::span<const uint64_t> sums, const BlockChecks& checks, size_t firstFlag)
    : path_(path), vertexCount_(vertexCount), predicate_(predicate), section_(section), arrays_(arrays),
      sums_(sums), checks_(checks) {
  size_t sum = 0;
  for (AdjacencyArray array : kArrays) {
    firstSum_[index(array)] = sum;
    firstFlag_[index(array)] = firstFlag + sum;
    sum += pcsr::checkBlockCount(arrayBytes(section, array));
  }
  wholeFlag_ = firstFlag + sum;
}

size_t SectionBlocks::sumCount(const pcsr::PredicateSection& section) {
  size_t sums = 0;
  for (AdjacencyArray array : kArrays) sums += pcsr::checkBlockCount(arrayBytes(section, array));
  return sums;
}

size_t SectionBlocks::flagCount(const pcsr::PredicateSection& section) { return sumCount(section) + kAdjacencyArrays; }

size_t SectionBlocks::blocksOf(AdjacencyArray array) const {
  return pcsr::checkBlockCount(arrayBytes(section_, array));
}

void SectionBlocks::ensureWhole(AdjacencyArray array) const {
  const size_t flag = wholeFlag_ + index(array);
  if (checks_.passed(flag)) return;
  const size_t first = firstFlag_[index(array)];
  // Unchecked blocks on the arena's threads, without claiming their flags:
  // a block checked twice (here and by a lookup's ensure) costs time, not
  // correctness. Isolated: a caller holding a lock gets no unrelated task.
  const auto check = [&](size_t block) {
    if (!checks_.passed(first + block)) {
      checkBlock(array, block);
      checks_.markPassed(first + block);
    }
  };
  tbb::this_task_arena::isolate([&] { tbb::parallel_for(size_t{0}, blocksOf(array), check); });
  checks_.markPassed(flag);
}

void SectionBlocks::checkAll() const {
  for (AdjacencyArray array : kArrays) {
    tbb::this_task_arena::isolate(
        [&] { tbb::parallel_for(size_t{0}, blocksOf(array), [&](size_t block) { checkBlock(array, block); }); });
  }
}

void SectionBlocks::checkBlock(AdjacencyArray array, size_t block) const {
  const std::span<const std::byte> all = arrays_.bytes(array);
  const size_t begin = block * pcsr::kCheckBlockBytes;
  const std::span<const std::byte> bytes = all.subspan(begin, std::min<size_t>(pcsr::kCheckBlockBytes, all.size() - begin));
  // The message is made only for damage: whole arrays check thousands of blocks.
  const auto corrupted = [&](uint64_t offset, const std::string& what) {
    throwCorrupted(path_, offset, "predicate " + std::to_string(predicate_) + ": " + what);
  };
  if (XXH3_64bits(bytes.data(), bytes.size()) != sums_[firstSum_[index(array)] + block]) {
    corrupted(arrayOffset(section_, array) + begin, "block checksum mismatch");
  }
  const size_t elementBytes = arrays_.elementBytes(array);
  if (auto corruption = findCorruptionIn(arrays_, section_, array, begin / elementBytes,
                                         (begin + bytes.size()) / elementBytes, vertexCount_)) {
    corrupted(corruption->offset, corruption->what);
  }
}

}  // namespace gsparql
