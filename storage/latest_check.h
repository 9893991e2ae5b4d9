#pragma once
// GraphStore::isLatest for a store asked often (a server, before each
// query): the files are read again only after the database folder changed
// (storage/generation_watch.h), and a snapshot once older stays older.
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

#include "storage/generation_watch.h"

namespace gsparql {

class GraphStore;

class LatestCheck {
 public:
  explicit LatestCheck(const GraphStore& store) : store_(store) {}

  // As store.isLatest(): false once another writer has committed since it opened.
  bool isLatest();

 private:
  GenerationWatch& watch();

  const GraphStore& store_;
  std::mutex watchMutex_;
  std::shared_ptr<GenerationWatch> watch_;  // taken by the first call: most stores are never asked
  static constexpr uint64_t kNever = UINT64_MAX;
  std::atomic<uint64_t> verifiedAt_{kNever};  // the watch's count when the files last said latest
  std::atomic<bool> older_{false};
};

}  // namespace gsparql
