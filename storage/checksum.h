#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

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

}  // namespace gsparql
