#include "server/worker_pool.h"

#include <tbb/task_arena.h>

namespace gsparql::server {

WorkerPool::WorkerPool(size_t workers, size_t queueLength, size_t threadsPerTask) : queueLength_(queueLength) {
  for (size_t i = 0; i < workers; ++i) threads_.emplace_back([this, threadsPerTask] { work(threadsPerTask); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  ready_.notify_all();
  for (auto& thread : threads_) thread.join();
}

bool WorkerPool::trySubmit(std::function<void()> task) {
  {
    std::lock_guard lock(mutex_);
    if (running_ + queue_.size() >= threads_.size() + queueLength_) return false;
    queue_.push_back(std::move(task));
  }
  ready_.notify_one();
  return true;
}

void WorkerPool::work(size_t threadsPerTask) {
  tbb::task_arena arena(static_cast<int>(threadsPerTask));
  std::unique_lock lock(mutex_);
  for (;;) {
    ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, and nothing left to run
    std::function<void()> task = std::move(queue_.front());
    queue_.pop_front();
    ++running_;
    lock.unlock();
    arena.execute(task);
    lock.lock();
    --running_;
  }
}

}  // namespace gsparql::server
