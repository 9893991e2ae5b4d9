#include "server/http_server.h"

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstring>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/steady_timer.hpp>

#include "gsparql/error.h"
#include "server/http_session.h"

namespace gsparql::server {

namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

// After accept() fails for want of file descriptors (EMFILE), the next try
// waits this long: connections that end meanwhile free some.
constexpr auto kAcceptRetry = std::chrono::milliseconds(100);

// Why the listening socket could not be bound, in words.
std::string bindFailure(const boost::system::error_code& error) {
  if (error == net::error::address_in_use) return "address already in use";
  if (error == boost::system::errc::address_not_available || error == net::error::host_not_found) {
    return "not an address of this machine";
  }
  std::string text = error.message();
  text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  return text;
}

// Each connection holds a file descriptor: the soft limit (often 1,024)
// would refuse connections long before memory runs short.
void raiseDescriptorLimit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= limit.rlim_max) return;
  limit.rlim_cur = limit.rlim_max;
  ::setrlimit(RLIMIT_NOFILE, &limit);
}

}  // namespace

// One io_context per connection thread, each run by its thread alone, the
// connections dealt out among them in turn: with one io_context shared by
// all threads, its lock and wake-ups were the server's hottest spot on 16
// cores. The first also accepts.
struct HttpServer::State {
  State(HttpHandler& handler, HttpLimits limits) : handler(handler), limits(std::move(limits)) {
    busy.push_back(net::make_work_guard(*contexts.front()));
  }

  static std::unique_ptr<net::io_context> makeContext() {
    return std::make_unique<net::io_context>(1);  // hint: one thread runs it
  }
  static std::vector<std::unique_ptr<net::io_context>> firstContext() {
    std::vector<std::unique_ptr<net::io_context>> first;
    first.push_back(makeContext());
    return first;
  }
  void addContext() {
    contexts.push_back(makeContext());
    busy.push_back(net::make_work_guard(*contexts.back()));  // run() waits for connections
  }

  void accept() {
    net::io_context& next = *contexts[accepted++ % contexts.size()];
    acceptor.async_accept(next.get_executor(), [this](boost::system::error_code ec, HttpSession::Stream::socket_type socket) {
      if (!acceptor.is_open()) return;
      if (ec) return retryLater();
      boost::system::error_code ignored;
      // A response goes out in several writes (head, chunks): with Nagle's
      // algorithm each small one could wait for the client's delayed ACK.
      socket.set_option(tcp::no_delay(true), ignored);
      std::make_shared<HttpSession>(std::move(socket), handler, limits, stopped)->start();
      accept();
    });
  }

  void retryLater() {
    retry.expires_after(kAcceptRetry);
    retry.async_wait([this](boost::system::error_code ec) {
      if (!ec) accept();
    });
  }

  HttpHandler& handler;
  const HttpLimits limits;
  std::atomic<bool> stopped{false};
  // After limits: the sessions they hold read them.
  std::mutex contextsMutex;  // stop() from another thread while run() adds contexts
  std::vector<std::unique_ptr<net::io_context>> contexts = firstContext();  // before the acceptor, which uses it
  std::vector<net::executor_work_guard<net::io_context::executor_type>> busy;
  size_t accepted = 0;  // on the first context's thread
  tcp::acceptor acceptor{*contexts.front()};
  net::steady_timer retry{*contexts.front()};
};

HttpServer::HttpServer(HttpHandler& handler, HttpLimits limits)
    : state_(std::make_unique<State>(handler, std::move(limits))) {
  raiseDescriptorLimit();
}

HttpServer::~HttpServer() { state_->stopped = true; }

int HttpServer::bind(const std::string& address, int port) {
  const std::string where = address + ":" + std::to_string(port);
  boost::system::error_code ec;
  tcp::resolver resolver(*state_->contexts.front());
  const auto endpoints = resolver.resolve(address, std::to_string(port), tcp::resolver::passive | tcp::resolver::numeric_service, ec);
  if (ec || endpoints.empty()) throw Error("cannot listen on " + where + ": " + bindFailure(net::error::host_not_found));
  const tcp::endpoint endpoint = *endpoints.begin();
  tcp::acceptor& acceptor = state_->acceptor;
  acceptor.open(endpoint.protocol(), ec);
  // SO_REUSEADDR lets a restarted server listen while its old connections
  // are in TIME_WAIT; never SO_REUSEPORT, which would let a second server
  // share the port, the kernel splitting connections between two databases.
  if (!ec) acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) {
    acceptor.close();
    throw Error("cannot listen on " + where + ": " + bindFailure(ec));
  }
  return acceptor.local_endpoint().port();
}

void HttpServer::run(size_t threads) {
  {
    std::lock_guard lock(state_->contextsMutex);
    while (state_->contexts.size() < std::max<size_t>(threads, 1)) state_->addContext();
    if (state_->stopped) return;
  }
  state_->accept();
  std::vector<std::thread> others;
  for (size_t i = 1; i < state_->contexts.size(); ++i) {
    others.emplace_back([context = state_->contexts[i].get()] { context->run(); });
  }
  state_->contexts.front()->run();
  for (std::thread& thread : others) thread.join();
  boost::system::error_code ignored;
  state_->acceptor.close(ignored);
}

void HttpServer::stop() {
  std::lock_guard lock(state_->contextsMutex);
  state_->stopped = true;
  for (auto& context : state_->contexts) context->stop();
}

}  // namespace gsparql::server
