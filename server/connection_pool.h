#pragma once
// The connection threads of `gsparql serve`: one thread per open connection,
// created as connections come, up to a cap, and ended after a while without
// work. cpp-httplib serves a connection on one thread from its first byte to
// its close, blocking in reads; with a fixed pool, idle or slow connections
// (10,000 of them, or a client that sends a byte a second) would hold every
// thread while new requests waited behind them. Here they each hold a
// thread that sleeps in a read until cpp-httplib's read timeout closes the
// connection, and a new connection gets a thread of its own at once.
#include <httplib.h>

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>

namespace gsparql::server {

class ConnectionPool : public httplib::TaskQueue {
 public:
  // maxThreads: past it, connections wait for a thread to finish one.
  explicit ConnectionPool(size_t maxThreads);
  ~ConnectionPool() override { shutdown(); }

  void enqueue(std::function<void()> connection) override;
  // Waits for the connections in progress (and queued) to end.
  void shutdown() override;

 private:
  // Shared with the (detached) threads, which may outlive the pool by the
  // moment it takes them to return after their last notification.
  struct State {
    explicit State(size_t maxThreads) : maxThreads(maxThreads) {}
    const size_t maxThreads;
    std::mutex mutex;
    std::condition_variable wake, allEnded;
    std::deque<std::function<void()>> waiting;
    size_t threads = 0;  // alive
    size_t idle = 0;     // alive and waiting for a connection
    bool stopping = false;
  };
  static void work(const std::shared_ptr<State>& state);

  std::shared_ptr<State> state_;
};

}  // namespace gsparql::server
