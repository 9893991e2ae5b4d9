#include "platform/heap_settings.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace gsparql {

void startWithWarmHeapSettings() {
#if defined(__GLIBC__)
  // glibc's DEFAULT_MMAP_THRESHOLD_MAX on 64-bit systems, and the trim
  // threshold its dynamic adjustment pairs with it (twice).
  constexpr int kMmapThreshold = 32 << 20;
  mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
  mallopt(M_TRIM_THRESHOLD, 2 * kMmapThreshold);
#endif
}

}  // namespace gsparql
