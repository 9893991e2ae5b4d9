#include "storage/checksum.h"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace gsparql {
namespace {

constexpr uint32_t kCastagnoli = 0x82F63B78u;  // the polynomial, bits reversed

constexpr std::array<uint32_t, 256> crc32cTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) != 0 ? (c >> 1) ^ kCastagnoli : c >> 1;
    table[i] = c;
  }
  return table;
}

uint32_t crc32cBytewise(uint32_t crc, const unsigned char* p, size_t n) {
  static constexpr std::array<uint32_t, 256> kTable = crc32cTable();
  for (size_t i = 0; i < n; ++i) crc = kTable[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
  return crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint32_t crc32cSse42(uint32_t crc, const unsigned char* p, size_t n) {
  uint64_t c = crc;
  for (; n >= 8; p += 8, n -= 8) {
    uint64_t word;
    std::memcpy(&word, p, sizeof word);
    c = _mm_crc32_u64(c, word);
  }
  auto c32 = static_cast<uint32_t>(c);
  for (; n > 0; ++p, --n) c32 = _mm_crc32_u8(c32, *p);
  return c32;
}
#endif

}  // namespace

uint32_t crc32c(uint32_t crc, const void* data, size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
#if defined(__x86_64__)
  static const bool hardware = __builtin_cpu_supports("sse4.2");
  if (hardware) return ~crc32cSse42(~crc, p, bytes);
#endif
  return ~crc32cBytewise(~crc, p, bytes);
}

uint32_t crc32Update(uint32_t crc, const void* data, size_t bytes) {
  if (bytes == 0) return crc;  // zlib answers a null buffer with the initial value
  return static_cast<uint32_t>(crc32_z(crc, static_cast<const Bytef*>(data), bytes));
}

uint32_t crc32UpdateParallel(uint32_t crc, std::span<const std::byte> bytes) {
  constexpr size_t kBlockBytes = size_t{1} << 20;
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

}  // namespace gsparql
