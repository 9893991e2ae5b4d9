#include "engine/bgp/query_limits.h"
#include "gsparql/error.h"

namespace gsparql::engine {

void QueryLimits::throwIfStopped() const {
  if (cancelled()) throw QueryCancelled();
  if (deadline && std::chrono::steady_clock::now() >= *deadline) throw QueryTimedOut(timeoutSeconds);
}

void QueryLimits::checkMemory(uint64_t bytes, const std::string& what) const {
  if (bytes > memoryBudgetBytes) throw QueryOutOfMemory(what, memoryBudgetBytes);
}

void countOnThisThread(const QueryLimits& limits) {
  thread_local int64_t left = StopCheck::kDefaultInterval;
  if (--left > 0) return;
  left = StopCheck::kDefaultInterval;
  limits.throwIfStopped();
}

}  // namespace gsparql::engine
