#pragma once
// The HTTP/1.1 server of `gsparql serve`, on Boost.Beast over Asio: a
// listening socket and a few connection threads that serve every
// connection asynchronously (http_session.h), so that idle and slow clients
// cost a socket and a buffer rather than a thread. It reads requests
// (keep-alive, pipelining, chunked bodies, Expect: 100-continue, HTTP/1.0),
// refuses what no handler should see (a malformed head, a body over the
// limit) and hands the rest to an HttpHandler (http_exchange.h).
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "server/http_exchange.h"

namespace gsparql::server {

struct HttpLimits {
  size_t maxBodyBytes = 4 << 20;  // a larger body: 413
  size_t maxHeadBytes = 64 << 10;  // the request line and headers; past it 414 or 431
  // The wait for a request's head, from the connection's start or the
  // previous response's end to its empty line, and then for its body: an
  // idle keep-alive connection, or one that sends a byte a second, is
  // closed after it.
  std::chrono::milliseconds requestTimeout{10000};
  std::chrono::milliseconds writeTimeout{30000};  // for each write of a response
  // Added to the answers that this layer gives by itself (the CORS headers
  // that let a page read why its request was refused).
  HttpHeaders refusalHeaders;
};

class HttpServer {
 public:
  HttpServer(HttpHandler& handler, HttpLimits limits);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Listens on `address` (an IP address or a host name), `port` (0: any
  // free one); returns the port. Throws Error naming the address and why.
  int bind(const std::string& address, int port);
  // Serves on `threads` threads, the caller's among them, until stop().
  void run(size_t threads);
  // From any thread: closes the listening socket and every connection;
  // run() returns.
  void stop();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace gsparql::server
