#include "server/http_server.h"

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstring>
#include <optional>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

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

struct HttpServer::State {
  State(HttpHandler& handler, HttpLimits limits) : handler(handler), limits(std::move(limits)) {}

  void accept() {
    acceptor.async_accept(net::make_strand(io), [this](boost::system::error_code ec, tcp::socket socket) {
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
  net::io_context io;  // after limits: the sessions it holds read them
  tcp::acceptor acceptor{io};
  net::steady_timer retry{io};
};

HttpServer::HttpServer(HttpHandler& handler, HttpLimits limits)
    : state_(std::make_unique<State>(handler, std::move(limits))) {
  raiseDescriptorLimit();
}

HttpServer::~HttpServer() { state_->stopped = true; }

int HttpServer::bind(const std::string& address, int port) {
  const std::string where = address + ":" + std::to_string(port);
  boost::system::error_code ec;
  tcp::resolver resolver(state_->io);
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
  state_->accept();
  std::vector<std::thread> others;
  for (size_t i = 1; i < threads; ++i) others.emplace_back([this] { state_->io.run(); });
  state_->io.run();
  for (std::thread& thread : others) thread.join();
  boost::system::error_code ignored;
  state_->acceptor.close(ignored);
}

void HttpServer::stop() {
  state_->stopped = true;
  state_->io.stop();
}

}  // namespace gsparql::server
