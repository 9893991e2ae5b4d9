#include "storage/latest_check.h"

#include "storage/graph_store.h"

namespace gsparql {

GenerationWatch& LatestCheck::watch() {
  std::lock_guard lock(watchMutex_);
  if (!watch_) watch_ = GenerationWatch::shared(store_.generation().dir.parent_path());
  return *watch_;
}

bool LatestCheck::isLatest() {
  if (older_.load(std::memory_order_acquire)) return false;
  // Counted before the files are read: a change made while they are read
  // moves the count past what is stored, so the next call reads them again.
  const uint64_t changes = watch().changes();
  if (changes == verifiedAt_.load(std::memory_order_acquire)) return true;
  if (!store_.isLatest()) {
    older_.store(true, std::memory_order_release);
    return false;
  }
  verifiedAt_.store(changes, std::memory_order_release);
  return true;
}

}  // namespace gsparql
