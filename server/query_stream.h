#pragma once
// Carries a query's output from the worker that runs it to the HTTP thread
// that answers. The response's status goes out before its body, so the HTTP
// thread first waits until the query has either ended or written more than
// a first window of bytes: a query that fails before that (a syntax error,
// a timeout, too many rows) is answered with its own status; one that fails
// later ends the stream early. After the first window, the writer waits
// whenever a window of bytes is waiting to be sent, so a slow client slows
// the query instead of filling memory, and a client that goes away makes
// the query's next write fail, which stops it.
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <ostream>
#include <streambuf>
#include <string>

namespace gsparql::server {

class QueryStream {
 public:
  explicit QueryStream(size_t windowBytes);
  QueryStream(const QueryStream&) = delete;
  QueryStream& operator=(const QueryStream&) = delete;

  // The query's side.
  std::ostream& out() { return out_; }
  // The query ended: `error` is null when it succeeded.
  void finish(std::exception_ptr error);

  // The HTTP side. Each wait gives up after `timeout`, for the caller to
  // look whether the client is still there; true once what it waits for
  // is there. waitForFirstWindow: the query ended or filled the first window.
  bool waitForFirstWindow(std::chrono::milliseconds timeout);
  bool finished();
  std::exception_ptr error();
  // Output is waiting or the query ended.
  bool waitForOutput(std::chrono::milliseconds timeout);
  // Blocks until output is waiting or the query ended; moves the output to
  // `chunk`. False once everything was taken and the query ended.
  bool next(std::string& chunk);
  // The client is gone: the query's writes fail from now on.
  void abandon();

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

  // Appends to what waits for the HTTP thread; false once abandoned.
  bool append(const char* data, size_t size);

  const size_t windowBytes_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::string pending_;
  bool finished_ = false;
  bool abandoned_ = false;
  std::exception_ptr error_;
  Buffer buffer_;
  std::ostream out_;
};

}  // namespace gsparql::server
