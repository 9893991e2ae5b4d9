#pragma once
// Exceptions must not cross a oneTBB pipeline: a cancelled pipeline leaks the
// items in flight. Stages run their work through guard(), which records the
// first failure instead of throwing; the input stage stops once one is
// recorded, later stages skip their work, and the caller rethrows it after
// the pipeline has drained.
#include <atomic>
#include <exception>
#include <mutex>

namespace gsparql {

class PipelineFailure {
 public:
  template <typename Work>
  void guard(Work&& work) {
    if (failed()) return;
    try {
      work();
    } catch (...) {
      record(std::current_exception());
    }
  }
  void record(std::exception_ptr error) {
    std::lock_guard lock(mutex_);
    if (!error_) error_ = error;
    failed_ = true;
  }
  bool failed() const { return failed_; }
  void rethrowIfFailed() const {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  std::mutex mutex_;
  std::exception_ptr error_;
  std::atomic<bool> failed_{false};
};

}  // namespace gsparql
