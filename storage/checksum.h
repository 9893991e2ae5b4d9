#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

namespace gsparql {

// CRC-32 (zlib's), continued from `crc` so several arrays can share one sum.
uint32_t crc32Update(uint32_t crc, const void* data, size_t bytes);

// The same sum for a large buffer, in blocks on several threads. The work
// runs isolated (tbb::this_task_arena::isolate), so a caller that holds a
// lock is never handed an unrelated task that waits for that lock.
uint32_t crc32UpdateParallel(uint32_t crc, std::span<const std::byte> bytes);

template <typename T>
uint32_t crc32Update(uint32_t crc, std::span<const T> values) {
  return crc32Update(crc, values.data(), values.size_bytes());
}

// xxHash's XXH3 (64 bits, the low 32 kept), seeded with `seed` so several
// arrays can share one sum (the sum of the first seeds the second): for data
// checked on a query's path (the term and value columns' blocks), many times
// faster than zlib's CRC-32 (zlib's made cold WatDiv SF10 queries 1.33x slower).
uint32_t blockSum(uint32_t seed, const void* data, size_t bytes);

template <typename T>
uint32_t blockSum(uint32_t seed, std::span<const T> values) {
  return blockSum(seed, values.data(), values.size_bytes());
}

// XXH3 (64 bits) of each block of `blockBytes` of each array in turn (an
// array's last block shorter, an empty array none), on several threads where
// there are many (isolated as crc32UpdateParallel).
std::vector<uint64_t> blockSums(std::initializer_list<std::span<const std::byte>> arrays, size_t blockBytes);
// The sum of such sums: XXH3 of them, the low 32 bits kept.
uint32_t sumOfBlockSums(std::span<const uint64_t> sums);

// The sum of several arrays read as one (a PCSR section's, format 3): the
// sum of their sums of 1 MiB blocks. About 4.6 times as fast as zlib's
// CRC-32 on one core. Format 4 keeps its (smaller) blocks' sums in the file.
uint32_t sectionSum(std::initializer_list<std::span<const std::byte>> arrays);

}  // namespace gsparql
