#include "storage/checksum.h"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <zlib.h>

// Inlined: the sum of a 2 KiB block costs less than a call into a library.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>
#include <vector>

namespace gsparql {
namespace {

// The parallel sums' unit: a thread's share of work that outweighs waking it.
constexpr size_t kBlockBytes = size_t{1} << 20;

}  // namespace

uint32_t blockSum(uint32_t seed, const void* data, size_t bytes) {
  return static_cast<uint32_t>(XXH3_64bits_withSeed(data, bytes, seed));
}

uint32_t crc32Update(uint32_t crc, const void* data, size_t bytes) {
  if (bytes == 0) return crc;  // zlib answers a null buffer with the initial value
  return static_cast<uint32_t>(crc32_z(crc, static_cast<const Bytef*>(data), bytes));
}

uint32_t crc32UpdateParallel(uint32_t crc, std::span<const std::byte> bytes) {
  if (bytes.size() <= kBlockBytes) return crc32Update(crc, bytes.data(), bytes.size());
  const size_t blocks = (bytes.size() + kBlockBytes - 1) / kBlockBytes;
  auto block = [&](size_t i) {
    const size_t begin = i * kBlockBytes;
    return bytes.subspan(begin, std::min(kBlockBytes, bytes.size() - begin));
  };
  std::vector<uint32_t> sums(blocks);
  tbb::this_task_arena::isolate([&] {
    tbb::parallel_for(size_t{0}, blocks, [&](size_t i) {
      auto b = block(i);
      sums[i] = crc32Update(0, b.data(), b.size());
    });
  });
  for (size_t i = 0; i < blocks; ++i) {
    crc = static_cast<uint32_t>(crc32_combine(crc, sums[i], static_cast<z_off_t>(block(i).size())));
  }
  return crc;
}

std::vector<uint64_t> blockSums(std::initializer_list<std::span<const std::byte>> arrays, size_t blockBytes) {
  std::vector<std::span<const std::byte>> blocks;
  size_t bytes = 0;
  for (std::span<const std::byte> array : arrays) {
    bytes += array.size();
    for (size_t begin = 0; begin < array.size(); begin += blockBytes) {
      blocks.push_back(array.subspan(begin, std::min(blockBytes, array.size() - begin)));
    }
  }
  std::vector<uint64_t> sums(blocks.size());
  const auto sum = [&](size_t i) { sums[i] = XXH3_64bits(blocks[i].data(), blocks[i].size()); };
  if (bytes <= kBlockBytes) {  // most predicates: five small arrays, summed on this thread
    for (size_t i = 0; i < blocks.size(); ++i) sum(i);
  } else {
    tbb::this_task_arena::isolate([&] { tbb::parallel_for(size_t{0}, blocks.size(), sum); });
  }
  return sums;
}

uint32_t sumOfBlockSums(std::span<const uint64_t> sums) {
  return static_cast<uint32_t>(XXH3_64bits(sums.data(), sums.size_bytes()));
}

uint32_t sectionSum(std::initializer_list<std::span<const std::byte>> arrays) {
  return sumOfBlockSums(blockSums(arrays, kBlockBytes));
}

}  // namespace gsparql
