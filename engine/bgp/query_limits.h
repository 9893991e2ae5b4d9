#pragma once
// A query's limits (time, cancel, memory) and the cheap check of them that
// inner loops make.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace gsparql::engine {

// What a whole query may spend, and when it must stop: one for the query,
// read by its operators and by every executor call it makes.
struct QueryLimits {
  // Set by another thread or a signal handler; operators and executors
  // notice it within a bounded amount of work (StopCheck) and throw QueryCancelled.
  const std::atomic<bool>* cancel = nullptr;
  // When the query must stop with QueryTimedOut; and the timeout, for the message.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  double timeoutSeconds = 0;
  // The bytes the query's intermediate tables may hold at once.
  uint64_t memoryBudgetBytes = UINT64_MAX;

  bool cancelled() const { return cancel != nullptr && cancel->load(std::memory_order_relaxed); }
  bool stopRequested() const { return cancelled() || (deadline && std::chrono::steady_clock::now() >= *deadline); }
  // Throws QueryCancelled or QueryTimedOut when the query must stop.
  void throwIfStopped() const;
  // Throws QueryOutOfMemory when a table of `bytes` (`what`, for the
  // message) does not fit the budget.
  void checkMemory(uint64_t bytes, const std::string& what) const;
};

// Checks a query's limits from an inner loop: a countdown of work units (a
// row, a comparison, a node reached, an expression node evaluated), so that
// the clock is read once per `interval` units. A unit costs from tens of
// nanoseconds to a microsecond, so the default interval reads the clock at
// most every few milliseconds of work and a stop is noticed well within 100 ms,
// while the check costs a counter decrement per unit.
class StopCheck {
 public:
  static constexpr int64_t kDefaultInterval = 4096;

  explicit StopCheck(const QueryLimits& limits, int64_t interval = kDefaultInterval)
      : limits_(&limits), interval_(interval), left_(interval) {}

  // Counts `work` units; throws QueryCancelled or QueryTimedOut when the
  // countdown ends and the query must stop.
  void operator()(int64_t work = 1) {
    if ((left_ -= work) > 0) return;
    left_ = interval_;
    limits_->throwIfStopped();
  }

 private:
  const QueryLimits* limits_;
  int64_t interval_;
  int64_t left_;
};

// StopCheck for work that threads share without an object per thread (the
// comparisons of a parallel sort): counts one unit on the calling thread's
// countdown, which any query on that thread continues.
void countOnThisThread(const QueryLimits& limits);

}  // namespace gsparql::engine
