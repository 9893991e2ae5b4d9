#pragma once
// Carries a query's output from the worker that runs it to the connection
// that answers. The response's status goes out before its body, so the
// answer waits until the query has either ended or written more than a
// first window of bytes: a query that fails before that (a syntax error,
// a timeout, too many rows) is answered with its own status; one that fails
// later ends the stream early. After the first window, the writer waits
// whenever a window of bytes is waiting to be sent, so a slow client slows
// the query instead of filling memory, and a client that goes away makes
// the query's next write fail, which stops it.
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <ostream>
#include <streambuf>
#include <string>

#include "server/http_exchange.h"

namespace gsparql::server {

class QueryStream final : public BodySource {
 public:
  explicit QueryStream(size_t windowBytes);
  QueryStream(const QueryStream&) = delete;
  QueryStream& operator=(const QueryStream&) = delete;

  // The query's side.
  std::ostream& out() { return out_; }
  // The query ended: `error` is null when it succeeded.
  void finish(std::exception_ptr error);

  // The HTTP side, never blocking. The query ended or filled its first
  // window: its status can be told.
  bool firstWindowReady();
  bool finished();
  std::exception_ptr error();

  Next take(std::string& chunk) override;
  // Called when the first window fills, when output comes after all was
  // taken, and when the query ends.
  void onNews(std::function<void()> news) override;
  // The client is gone: the query's writes fail from now on.
  void abandon() override;

 private:
  class Buffer : public std::streambuf {
   public:
    explicit Buffer(QueryStream& stream);

   protected:
    int_type overflow(int_type c) override;
    int sync() override;

   private:
    bool hand();
    QueryStream& stream_;
    char local_[16384];  // the writers' small writes gather here before taking the lock
  };

  // Appends to what waits for the HTTP side; false once abandoned.
  bool append(const char* data, size_t size);
  void tell(std::unique_lock<std::mutex>& lock);

  const size_t windowBytes_;
  std::mutex mutex_;
  std::condition_variable taken_;  // the writer waits here while a window waits to be sent
  std::string pending_;
  bool finished_ = false;
  bool abandoned_ = false;
  std::exception_ptr error_;
  std::function<void()> news_;
  Buffer buffer_;
  std::ostream out_;
};

}  // namespace gsparql::server
