#include "server/connection_pool.h"

#include <chrono>
#include <system_error>
#include <thread>

namespace gsparql::server {
namespace {

// A thread without a connection for this long ends; a burst of connections
// leaves no thousands of threads behind.
constexpr auto kIdleThreadLife = std::chrono::seconds(10);

}  // namespace

ConnectionPool::ConnectionPool(size_t maxThreads) : state_(std::make_shared<State>(maxThreads)) {}

void ConnectionPool::enqueue(std::function<void()> connection) {
  State& s = *state_;
  std::unique_lock lock(s.mutex);
  s.waiting.push_back(std::move(connection));
  // An idle thread counts as idle until it wakes: in a burst, one idle
  // thread must not be left all the connections that came meanwhile.
  if (s.waiting.size() <= s.idle) {
    s.wake.notify_one();
    return;
  }
  if (s.threads >= s.maxThreads) return;  // the next thread to finish takes it
  ++s.threads;
  lock.unlock();
  try {
    std::thread([state = state_] { work(state); }).detach();
  } catch (const std::system_error&) {  // no more threads: those there take it in turn
    lock.lock();
    --s.threads;
  }
}

void ConnectionPool::work(const std::shared_ptr<State>& state) {
  State& s = *state;
  std::unique_lock lock(s.mutex);
  for (;;) {
    ++s.idle;
    const bool woken = s.wake.wait_for(lock, kIdleThreadLife, [&] { return !s.waiting.empty() || s.stopping; });
    --s.idle;
    if (s.waiting.empty() && (s.stopping || !woken)) break;
    auto connection = std::move(s.waiting.front());
    s.waiting.pop_front();
    lock.unlock();
    try {
      connection();
    } catch (...) {  // cpp-httplib answers errors itself; nothing may end the process
    }
    lock.lock();
  }
  if (--s.threads == 0) s.allEnded.notify_all();
}

void ConnectionPool::shutdown() {
  State& s = *state_;
  std::unique_lock lock(s.mutex);
  s.stopping = true;
  s.wake.notify_all();
  s.allEnded.wait(lock, [&] { return s.threads == 0; });
}

}  // namespace gsparql::server
