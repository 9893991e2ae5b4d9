// The command-line program's allocator settings (platform/heap_settings.h):
// after them, a block of a few MiB freed and asked for again comes from the
// heap, not from a mapping made and unmapped each time.
#include <doctest/doctest.h>

#include <malloc.h>

#include <cstdlib>
#include <cstring>

#include "platform/heap_settings.h"

namespace {

// AddressSanitizer's allocator replaces glibc's: no mapped blocks to count.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kOtherAllocator = true;
#else
constexpr bool kOtherAllocator = false;
#endif

// Mapped blocks in use while a block of `bytes` is (glibc's count).
size_t mappedBlocksWith(size_t bytes) {
  void* block = std::malloc(bytes);
  REQUIRE(block != nullptr);
  std::memset(block, 1, bytes);  // used, as a result column is
  const size_t mapped = mallinfo2().hblks;
  std::free(block);
  return mapped;
}

}  // namespace

TEST_CASE("with the warm heap settings, blocks of a few MiB come from the heap, not from fresh mappings" *
          doctest::skip(kOtherAllocator)) {
  gsparql::startWithWarmHeapSettings();
  const size_t before = mallinfo2().hblks;
  for (size_t mib : {1, 4, 16, 31}) {
    CAPTURE(mib);
    CHECK(mappedBlocksWith(mib << 20) == before);
  }
  // Above the threshold (32 MiB) a block is still mapped on its own.
  CHECK(mappedBlocksWith(size_t{64} << 20) == before + 1);
}
