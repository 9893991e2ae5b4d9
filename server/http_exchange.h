#pragma once
// What the HTTP layer (http_server.h, on Boost.Beast) and the application
// (sparql_server.h) say to each other, in plain types: a request read
// whole, a response, and the exchange through which the application answers
// a request, at once or later, from any thread.
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gsparql::server {

using HttpHeaders = std::vector<std::pair<std::string, std::string>>;

struct HttpRequest {
  std::string method;  // as sent: GET, POST, HEAD, ...
  std::string target;  // as sent: /sparql?query=...
  std::string path;    // the target's path, percent-decoded
  // The target's query string, percent-decoded ('+' read as a space, as
  // forms send it); repeated names appear repeatedly.
  std::multimap<std::string, std::string> params;
  HttpHeaders headers;
  std::string body;
  unsigned version = 11;  // 10 for HTTP/1.0
  std::string client;     // the peer's address
  std::string localAddress;
  int localPort = 0;
  std::chrono::steady_clock::time_point received;  // when it was read whole

  // The first value of a header (names are case-insensitive), or "".
  std::string header(std::string_view name) const;
};

struct HttpResponse {
  HttpResponse() = default;
  explicit HttpResponse(int status, HttpHeaders headers = {}) : status(status), headers(std::move(headers)) {}

  int status = 200;
  HttpHeaders headers;
  std::string body;
  bool closeConnection = false;  // no further request on this connection

  void setHeader(std::string name, std::string value);
  void eraseHeader(std::string_view name);
  void setContent(std::string content, std::string mediaType);
};

// A response body produced while it is sent (a query's result): the HTTP
// layer takes what is ready whenever it is told that there is news.
class BodySource {
 public:
  virtual ~BodySource() = default;
  enum class Next { Chunk, Waiting, End, Failed };
  // Never blocks: Chunk moves what is ready into `chunk`; Waiting: nothing
  // yet; End: all was taken; Failed: the body ends early (an error after
  // the status was sent).
  virtual Next take(std::string& chunk) = 0;
  // `news` is called, from any thread, whenever take() may give something
  // new; it replaces any earlier one.
  virtual void onNews(std::function<void()> news) = 0;
  // Nobody will read the rest.
  virtual void abandon() = 0;
};

// One request and its answer. respond() or stream() once, from any thread;
// an exchange dropped without an answer gets 500.
class HttpExchange {
 public:
  virtual ~HttpExchange() = default;
  virtual const HttpRequest& request() const = 0;
  virtual void respond(HttpResponse response) = 0;
  // Sends `head` (status and headers; its body is ignored) with the body
  // that `source` gives, chunked (HTTP/1.0: up to the connection's close).
  virtual void stream(HttpResponse head, std::shared_ptr<BodySource> source) = 0;
  // `left` runs once if the client closes or resets its end before the
  // answer is sent whole (nobody would read it).
  virtual void onClientLeft(std::function<void()> left) = 0;
};

// The application's side.
class HttpHandler {
 public:
  virtual ~HttpHandler() = default;
  // On a connection's thread; must not block (hand long work to others).
  virtual void handle(std::shared_ptr<HttpExchange> exchange) = 0;
  // After a response's last byte, or once it could not be sent whole: for
  // the access log and the count of requests in flight. `handled`: the
  // request reached handle() (false for what the HTTP layer refused itself).
  virtual void completed(const HttpRequest& request, int status, uint64_t bodyBytes, bool handled) = 0;
};

}  // namespace gsparql::server
