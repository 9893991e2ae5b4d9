#pragma once
// Runs C++ work without the GIL, so that other Python threads go on meanwhile,
// while Ctrl-C (KeyboardInterrupt) still stops it.
#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <utility>

namespace gsparql::python {

// Waits until `doneWithin` says the work is done, without the GIL, taking it
// every few milliseconds to run Python's signal handlers (which run only on
// the main thread, and only while it holds the GIL). One that raises, as
// Ctrl-C's does, sets `cancel`; the work is awaited and the handler's
// exception raised in place of its outcome.
void awaitInterruptibly(const std::function<bool(std::chrono::milliseconds)>& doneWithin,
                        std::atomic<bool>& cancel);

// Runs `work` on a thread of its own, so that this one can run the signal
// handlers, and returns what it returns (or throws what it throws).
template <typename Work>
auto runInterruptibly(Work work, std::atomic<bool>& cancel) {
  auto outcome = std::async(std::launch::async, std::move(work));
  awaitInterruptibly(
      [&](std::chrono::milliseconds wait) { return outcome.wait_for(wait) == std::future_status::ready; }, cancel);
  return outcome.get();
}

}  // namespace gsparql::python
