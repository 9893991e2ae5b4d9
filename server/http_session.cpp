#include "server/http_session.h"

#include <sys/socket.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <mutex>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>

#include "server/form_urlencoded.h"
#include "server/request_limits.h"

namespace gsparql::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

// The exchange of one request: it holds the session until answered, so
// that a connection waiting for a long query is kept open by the query.
class SessionExchange final : public HttpExchange {
 public:
  SessionExchange(std::shared_ptr<HttpSession> session, std::shared_ptr<const HttpRequest> request)
      : session_(std::move(session)), request_(std::move(request)) {}
  ~SessionExchange() override {
    if (!answered_.exchange(true)) {
      HttpResponse fault{500};
      fault.setContent("internal error: the request was not answered\n", "text/plain; charset=utf-8");
      session_->post(std::move(fault), nullptr);
    }
  }
  const HttpRequest& request() const override { return *request_; }
  void respond(HttpResponse response) override {
    if (!answered_.exchange(true)) session_->post(std::move(response), nullptr);
  }
  void stream(HttpResponse head, std::shared_ptr<BodySource> source) override {
    if (!answered_.exchange(true)) session_->post(std::move(head), std::move(source));
  }
  void onClientLeft(std::function<void()> left) override {
    std::lock_guard lock(mutex_);
    left_ = std::move(left);
  }
  // On the session's thread.
  void clientLeft() {
    std::function<void()> left;
    {
      std::lock_guard lock(mutex_);
      left.swap(left_);
    }
    if (left) left();
  }

 private:
  const std::shared_ptr<HttpSession> session_;
  const std::shared_ptr<const HttpRequest> request_;
  std::atomic<bool> answered_{false};
  std::mutex mutex_;
  std::function<void()> left_;
};

namespace {

// Every answer says HTTP/1.1, the version this server conforms to, also to
// an HTTP/1.0 client (RFC 9110 6.2), which gets no chunks and no
// keep-alive it did not ask for.
constexpr unsigned kVersion = 11;

// A client that closed its end after its response is given this long to
// stop sending (a body we did not read), so that the kernel does not reset
// the connection before the client has read why.
constexpr auto kLingerTime = std::chrono::seconds(1);

// The request line (methods are tokens, targets visible characters,
// versions HTTP/x.y) or a later line of the head.
bool inRequestLine(const beast::error_code& ec, const beast::flat_buffer& buffer) {
  if (ec == http::error::bad_method || ec == http::error::bad_target || ec == http::error::bad_version) return true;
  const auto data = beast::buffers_to_string(buffer.data());
  return ec == http::error::bad_line_ending && data.find('\n') == data.rfind('\n');
}

}  // namespace

HttpSession::HttpSession(Stream::socket_type socket, HttpHandler& handler, const HttpLimits& limits,
                         const std::atomic<bool>& stopped)
    : stream_(std::move(socket)), handler_(handler), limits_(limits), stopped_(stopped) {}

void HttpSession::start() {
  net::dispatch(stream_.get_executor(), [self = shared_from_this()] { self->readHead(); });
}

void HttpSession::post(HttpResponse response, std::shared_ptr<BodySource> source) {
  if (stopped_) return;  // (posting while the io_context is destroyed would be undefined)
  net::post(stream_.get_executor(), [self = shared_from_this(), response = std::move(response), source = std::move(source)]() mutable {
    if (source) return self->startStream(std::move(response), std::move(source));
    self->send(std::move(response));
  });
}

void HttpSession::readHead() {
  request_.reset();
  handled_ = false;
  bodyBytes_ = 0;
  parser_.emplace();
  parser_->header_limit(static_cast<uint32_t>(limits_.maxHeadBytes));
  parser_->body_limit(limits_.maxBodyBytes);
  stream_.expires_after(limits_.requestTimeout);
  http::async_read_header(stream_, buffer_, *parser_,
                          [self = shared_from_this()](beast::error_code ec, size_t) { self->onHead(ec); });
}

void HttpSession::onHead(beast::error_code ec) {
  if (!ec) return continueOrReadBody();
  if (ec == http::error::header_limit) {
    // Still in the request line: the URL is too long.
    const bool url = beast::buffers_to_string(buffer_.data()).find('\n') == std::string::npos;
    return refuse(url ? 414 : 431, (url ? uriTooLong(limits_.maxHeadBytes, limits_.maxBodyBytes)
                                        : headTooLarge(limits_.maxHeadBytes)).what());
  }
  if (ec == http::error::body_limit) return refuse(413, bodyTooLarge(limits_.maxBodyBytes).what());
  if (ec == http::error::bad_content_length) {
    return refuse(400, "the request's Content-Length is no length of a body (digits only, one value, below 2^64)");
  }
  if (ec == http::error::end_of_stream || buffer_.size() == 0) return close();  // gone, or timed out idle
  if (ec == beast::error::timeout) return close();  // a head too slow: the socket is closed
  if (inRequestLine(ec, buffer_)) return refuse(400, "a malformed request line (expected 'METHOD TARGET HTTP/1.1')");
  refuse(400, "a line of the request's head is no 'name: value' header line (" + ec.message() + ")");
}

void HttpSession::continueOrReadBody() {
  if (parser_->is_done()) return dispatch();
  if (!beast::iequals(parser_->get()[http::field::expect], "100-continue")) return readBody();
  // The client waits for this before it sends the body (RFC 9110 10.1.1).
  auto interim = std::make_shared<http::response<http::empty_body>>(http::status::continue_, parser_->get().version());
  writing_ = interim;
  stream_.expires_after(limits_.writeTimeout);
  http::async_write(stream_, *interim, [self = shared_from_this()](beast::error_code ec, size_t) {
    self->writing_.reset();
    if (ec) return self->close();
    self->readBody();
  });
}

void HttpSession::readBody() {
  stream_.expires_after(limits_.requestTimeout);
  http::async_read(stream_, buffer_, *parser_, [self = shared_from_this()](beast::error_code ec, size_t) { self->onBody(ec); });
}

void HttpSession::onBody(beast::error_code ec) {
  if (!ec) return dispatch();
  if (ec == http::error::body_limit) return refuse(413, bodyTooLarge(limits_.maxBodyBytes).what());
  if (ec == beast::error::timeout || ec == http::error::end_of_stream || ec == http::error::partial_message) {
    return close();  // the client stopped sending: nobody to answer
  }
  refuse(400, "the request body is malformed (" + ec.message() + ")");
}

void HttpSession::dispatch() {
  auto& message = parser_->get();
  auto request = std::make_shared<HttpRequest>();
  request->method = std::string(message.method_string());
  request->target = std::string(message.target());
  RequestTarget target = targetOf(request->target);
  request->path = std::move(target.path);
  request->params = std::move(target.params);
  for (const auto& field : message) request->headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
  request->body = std::move(message.body());
  request->version = message.version();
  beast::error_code ignored;
  request->client = stream_.socket().remote_endpoint(ignored).address().to_string();
  const tcp::endpoint local = stream_.socket().local_endpoint(ignored);
  request->localAddress = local.address().to_string();
  request->localPort = local.port();
  request->received = std::chrono::steady_clock::now();
  keepAlive_ = message.keep_alive();
  request_ = request;
  handled_ = true;
  stream_.expires_never();  // the handler may take long: the client is watched instead
  auto exchange = std::make_shared<SessionExchange>(shared_from_this(), request);
  exchange_ = exchange;
  watchClient();
  handler_.handle(std::move(exchange));
}

void HttpSession::refuse(int status, const std::string& message) {
  if (!request_) {
    auto request = std::make_shared<HttpRequest>();
    request->method = parser_->got_some() ? std::string(parser_->get().method_string()) : "-";
    request->target = request->path = parser_->got_some() ? std::string(parser_->get().target()) : "-";
    beast::error_code ignored;
    request->client = stream_.socket().remote_endpoint(ignored).address().to_string();
    request_ = request;
  }
  HttpResponse response{status, limits_.refusalHeaders};
  response.setContent(message + "\n", "text/plain; charset=utf-8");
  response.closeConnection = true;
  keepAlive_ = false;
  send(std::move(response));
}

void HttpSession::send(HttpResponse response) {
  stopWatching();
  auto res = std::make_shared<http::response<http::string_body>>(static_cast<http::status>(response.status), kVersion);
  for (auto& [name, value] : response.headers) res->insert(name, value);
  keepAlive_ = keepAlive_ && !response.closeConnection;
  res->keep_alive(keepAlive_);
  status_ = response.status;
  if (request_->method == "HEAD") {  // the length of the body a GET would get, without it
    res->content_length(response.body.size());
  } else {
    bodyBytes_ = response.body.size();
    res->body() = std::move(response.body);
    res->prepare_payload();
  }
  writing_ = res;
  stream_.expires_after(limits_.writeTimeout);
  http::async_write(stream_, *res, [self = shared_from_this()](beast::error_code ec, size_t) {
    self->writing_.reset();
    if (ec) self->keepAlive_ = false;
    self->finish();
  });
}

void HttpSession::startStream(HttpResponse head, std::shared_ptr<BodySource> source) {
  struct Head {
    http::response<http::empty_body> message;
    std::optional<http::response_serializer<http::empty_body>> serializer;
  };
  auto out = std::make_shared<Head>();
  out->message = http::response<http::empty_body>(static_cast<http::status>(head.status), kVersion);
  for (auto& [name, value] : head.headers) out->message.insert(name, value);
  // HTTP/1.0 has no chunks: the body ends with the connection.
  chunked_ = request_->version >= 11;
  keepAlive_ = keepAlive_ && chunked_ && !head.closeConnection;
  out->message.chunked(chunked_);
  out->message.keep_alive(keepAlive_);
  out->serializer.emplace(out->message);
  writing_ = out;
  status_ = head.status;
  source_ = std::move(source);
  // Holds the session until the stream ends (endStream drops it).
  source_->onNews([self = shared_from_this(), executor = stream_.get_executor()] {
    net::post(executor, [self] { self->pump(); });
  });
  writingChunk_ = true;
  stream_.expires_after(limits_.writeTimeout);
  http::async_write_header(stream_, *out->serializer, [self = shared_from_this()](beast::error_code ec, size_t) {
    self->writing_.reset();
    self->writingChunk_ = false;
    if (ec) return self->endStream(false);
    self->pump();
  });
}

void HttpSession::pump() {
  if (writingChunk_ || !source_) return;
  switch (source_->take(chunk_)) {
    case BodySource::Next::Chunk: return writeChunk();
    case BodySource::Next::Waiting: return;
    case BodySource::Next::End: return endStream(true);
    case BodySource::Next::Failed: return endStream(false);
  }
}

void HttpSession::writeChunk() {
  writingChunk_ = true;
  bodyBytes_ += chunk_.size();
  stream_.expires_after(limits_.writeTimeout);
  auto written = [self = shared_from_this()](beast::error_code ec, size_t) {
    self->writingChunk_ = false;
    if (ec) return self->endStream(false);
    self->pump();
  };
  if (chunked_) return net::async_write(stream_, http::make_chunk(net::buffer(chunk_)), std::move(written));
  net::async_write(stream_, net::buffer(chunk_), std::move(written));
}

// An incomplete stream ends with the connection, without the last chunk:
// clients report a truncated transfer rather than take part of a result
// for all of it.
void HttpSession::endStream(bool complete) {
  if (!complete) source_->abandon();
  source_->onNews(nullptr);
  source_.reset();
  stopWatching();
  if (!complete || !chunked_) {
    keepAlive_ = false;
    return finish();
  }
  writingChunk_ = true;
  stream_.expires_after(limits_.writeTimeout);
  net::async_write(stream_, http::make_chunk_last(), [self = shared_from_this()](beast::error_code ec, size_t) {
    self->writingChunk_ = false;
    if (ec) self->keepAlive_ = false;
    self->finish();
  });
}

void HttpSession::finish() {
  handler_.completed(*request_, status_, bodyBytes_, handled_);
  exchange_.reset();
  if (!keepAlive_) return close();
  readHead();
}

void HttpSession::close() {
  beast::error_code ec;
  stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
  if (ec) return stream_.close();
  stream_.expires_after(kLingerTime);
  drain();
}

void HttpSession::drain() {
  auto scratch = std::make_shared<std::array<char, 16384>>();
  stream_.async_read_some(net::buffer(*scratch), [self = shared_from_this(), scratch](beast::error_code ec, size_t) {
    if (ec) return self->stream_.close();
    self->drain();
  });
}

void HttpSession::watchClient() {
  if (watching_ || buffer_.size() > 0) return;  // a pipelined request waits: the client is there
  watching_ = true;
  stream_.socket().async_wait(tcp::socket::wait_read, [self = shared_from_this(), watch = ++watchNumber_](beast::error_code ec) {
    if (ec || watch != self->watchNumber_) return;  // cancelled: the answer was sent
    self->watching_ = false;
    self->onClientReadable();
  });
}

void HttpSession::stopWatching() {
  if (!watching_) return;
  watching_ = false;
  ++watchNumber_;
  beast::error_code ignored;
  stream_.socket().cancel(ignored);
}

void HttpSession::onClientReadable() {
  char byte;
  const ssize_t got = ::recv(stream_.socket().native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  if (got > 0) return;  // the client's next request: it is there
  if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return watchClient();
  keepAlive_ = false;  // closed or reset: nobody reads the answer
  if (auto exchange = exchange_.lock()) exchange->clientLeft();
  if (source_) source_->abandon();
}

}  // namespace gsparql::server
