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

}  // namespace gsparql::engine
