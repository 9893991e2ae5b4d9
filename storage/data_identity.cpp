#include "storage/data_identity.h"

#include <atomic>

namespace gsparql {

uint64_t newDataIdentity() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace gsparql
