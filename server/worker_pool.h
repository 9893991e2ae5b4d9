#pragma once
// The threads that run queries: a fixed number, and a bounded queue of
// queries waiting for one, so that an overloaded server refuses work (503)
// instead of piling it up. Each worker runs its tasks in a TBB arena of its
// own, so that a query's parallel loops use at most `threadsPerTask`
// threads: many queries at once each on a few cores, rather than all of
// them competing for every core (measured: benchmarks/results/h100-2026-11-24-server-load/).
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace gsparql::server {

class WorkerPool {
 public:
  WorkerPool(size_t workers, size_t queueLength, size_t threadsPerTask);
  ~WorkerPool();  // runs what is queued, then joins
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // False, without taking the task, when every worker is busy and the queue is full.
  bool trySubmit(std::function<void()> task);
  size_t workers() const { return threads_.size(); }
  size_t queueLength() const { return queueLength_; }

 private:
  void work(size_t threadsPerTask);

  const size_t queueLength_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> queue_;
  size_t running_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace gsparql::server
