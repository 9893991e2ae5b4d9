#pragma once
// One client connection of the HTTP server (http_server.h): its requests
// read one after another, each handed to the handler through an exchange,
// each answer written before the next request is read. Every step runs on
// the one thread that runs the connection's io_context (so no strand is
// needed); answers come from any thread by a post to it.
// While an answer is awaited or streamed, the session watches the socket:
// a client that closes or resets its end is reported to the exchange
// (onClientLeft), so that the query it left stops.
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "server/http_exchange.h"
#include "server/http_server.h"

namespace gsparql::server {

class SessionExchange;

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  // Of a concrete executor, not Asio's type-erased one: copying and
  // destroying that on every operation was a tenth of the server's time.
  using Executor = boost::asio::io_context::executor_type;
  using Stream = boost::beast::basic_stream<boost::asio::ip::tcp, Executor, boost::beast::unlimited_rate_policy>;

  // `stopped`: the server's threads have ended; answers that come after
  // are dropped with their connections.
  HttpSession(Stream::socket_type socket, HttpHandler& handler, const HttpLimits& limits,
              const std::atomic<bool>& stopped);
  void start();

  // From an exchange, on any thread: its answer.
  void post(HttpResponse response, std::shared_ptr<BodySource> source);

 private:
  using Parser = boost::beast::http::request_parser<boost::beast::http::string_body>;

  void readHead();
  void onHead(boost::beast::error_code ec);
  void continueOrReadBody();
  void readBody();
  void onBody(boost::beast::error_code ec);
  void dispatch();
  // An answer of this layer to a request it does not hand on; closes.
  void refuse(int status, const std::string& message);

  void send(HttpResponse response);
  void startStream(HttpResponse head, std::shared_ptr<BodySource> source);
  void pump();
  void writeChunk();
  void endStream(bool complete);
  // The request is answered: on to the next, or close.
  void finish();
  // Closes after a second in which what the client still sends is read and
  // dropped (a body that was not read).
  void close();
  void drain();

  void watchClient();
  void stopWatching();
  void onClientReadable();

  Stream stream_;
  HttpHandler& handler_;
  const HttpLimits& limits_;
  const std::atomic<bool>& stopped_;
  boost::beast::flat_buffer buffer_;
  std::optional<Parser> parser_;
  std::shared_ptr<const HttpRequest> request_;  // the one being answered
  bool handled_ = false;  // request_ reached the handler
  std::weak_ptr<SessionExchange> exchange_;
  bool watching_ = false;
  uint64_t watchNumber_ = 0;  // a cancelled watch's late completion is not the current one's

  // The answer being written.
  int status_ = 0;
  uint64_t bodyBytes_ = 0;
  bool keepAlive_ = false;
  std::shared_ptr<void> writing_;  // what an async write reads from, kept until it completes
  std::shared_ptr<BodySource> source_;
  std::string chunk_;
  bool chunked_ = false;
  bool writingChunk_ = false;
};

}  // namespace gsparql::server
