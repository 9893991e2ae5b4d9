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

// CRC-32C (Castagnoli), continued from `crc` as crc32Update is: for data
// checked on a query's path (the term and value columns' blocks), with the
// SSE 4.2 instruction where the processor has it, several times faster than
// zlib's CRC-32.
uint32_t crc32c(uint32_t crc, const void* data, size_t bytes);

template <typename T>
uint32_t crc32c(uint32_t crc, std::span<const T> values) {
  return crc32c(crc, values.data(), values.size_bytes());
}

}  // namespace gsparql
