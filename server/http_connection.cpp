#include "server/http_connection.h"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace gsparql::server {
namespace {

thread_local HttpConnection* currentConnection = nullptr;

// How often a wait looks up from the socket to what else it waits for.
constexpr auto kSlice = std::chrono::milliseconds(100);
// How long a connection closed before its request body was read drops
// what the client still sends, so that the client reads the response
// before the close resets the connection (Apache's and nginx's "lingering
// close").
constexpr auto kLinger = std::chrono::seconds(2);

// RFC 9110 5.6.2: the characters of a header name.
bool isTokenChar(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c != '\0' && std::strchr("!#$%&'*+-.^_`|~", c) != nullptr);
}

// "name:value" ended by CRLF (the LF already taken), name a token.
bool isHeaderLine(std::string_view line) {
  const size_t colon = line.find(':');
  return colon != std::string_view::npos && colon > 0 && line.back() == '\r' &&
         std::all_of(line.begin(), line.begin() + static_cast<std::ptrdiff_t>(colon), isTokenChar);
}

using AddressOf = int (*)(int, sockaddr*, socklen_t*);

void addressOf(AddressOf get, int socket, std::string& ip, int& port) {
  sockaddr_storage address{};
  socklen_t length = sizeof(address);
  if (get(socket, reinterpret_cast<sockaddr*>(&address), &length) != 0) return;
  char host[NI_MAXHOST], service[NI_MAXSERV];
  if (::getnameinfo(reinterpret_cast<sockaddr*>(&address), length, host, sizeof(host), service, sizeof(service),
                    NI_NUMERICHOST | NI_NUMERICSERV) == 0) {
    ip = host;
    port = std::atoi(service);
  }
}

}  // namespace

void HttpConnection::HeadCheck::scan(char c) {
  if (c != '\n') {
    line += c;
    if (c == '?' && !requestLineRead) ++questionMarks;
    return;
  }
  if (!requestLineRead) requestLineRead = true;
  else if (line == "\r") done = true;
  else malformed = malformed || !isHeaderLine(line);
  line.clear();
}

HttpConnection::HttpConnection(int socket, std::chrono::microseconds readTimeout,
                               std::chrono::microseconds writeTimeout)
    : socket_(socket), readTimeout_(readTimeout), writeTimeout_(writeTimeout) {
  currentConnection = this;
}

HttpConnection::~HttpConnection() {
  currentConnection = nullptr;
  if (closing_) {
    lingerAndClose();
  } else {
    ::shutdown(socket_, SHUT_RDWR);
    ::close(socket_);
  }
}

HttpConnection* HttpConnection::current() { return currentConnection; }

bool HttpConnection::waitFor(short events, std::chrono::microseconds timeout) const {
  pollfd p{socket_, events, 0};
  const int milliseconds = static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(timeout).count());
  int n;
  do {
    n = ::poll(&p, 1, milliseconds);
  } while (n < 0 && errno == EINTR);
  return n > 0;
}

bool HttpConnection::awaitRequest(std::chrono::milliseconds idle, const std::function<bool()>& serving) {
  const auto deadline = std::chrono::steady_clock::now() + idle;
  while (begin_ == end_) {
    if (!serving()) return false;
    const auto left = deadline - std::chrono::steady_clock::now();
    if (left <= left.zero()) return false;
    if (waitFor(POLLIN, std::min<std::chrono::microseconds>(kSlice, std::chrono::ceil<std::chrono::microseconds>(left)))) {
      return true;  // a byte, or the close that the read will find
    }
  }
  return true;
}

bool HttpConnection::clientLeft() const {
  pollfd p{socket_, POLLRDHUP, 0};
  return ::poll(&p, 1, 0) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
}

bool HttpConnection::is_readable() const {
  return !escaped_.empty() || begin_ != end_ || waitFor(POLLIN, readTimeout_);
}

bool HttpConnection::is_writable() const { return waitFor(POLLOUT, writeTimeout_); }

ssize_t HttpConnection::read(char* ptr, size_t size) {
  if (!escaped_.empty()) {
    const size_t n = escaped_.copy(ptr, size);
    escaped_.erase(0, n);
    return static_cast<ssize_t>(n);
  }
  if (begin_ == end_) {
    if (!is_readable()) return -1;
    ssize_t n;
    do {
      n = ::recv(socket_, buffer_.data(), buffer_.size(), 0);
    } while (n < 0 && errno == EINTR);
    if (n <= 0) return n;
    begin_ = 0;
    end_ = static_cast<size_t>(n);
  }
  if (!head_.done) return static_cast<ssize_t>(readHead(ptr, size));
  const size_t n = std::min(size, end_ - begin_);
  std::memcpy(ptr, buffer_.data() + begin_, n);
  begin_ += n;
  return static_cast<ssize_t>(n);
}

size_t HttpConnection::readHead(char* ptr, size_t size) {
  size_t n = 0;
  while (n < size && begin_ < end_ && !head_.done && escaped_.empty()) {
    const char c = buffer_[begin_++];
    head_.scan(c);
    if (head_.inQuery(c)) {
      ptr[n++] = '%';
      escaped_ = "3F";
    } else {
      ptr[n++] = c;
    }
  }
  return n;
}

ssize_t HttpConnection::write(const char* ptr, size_t size) {
  if (!is_writable()) return -1;
  ssize_t n;
  do {
    n = ::send(socket_, ptr, size, MSG_NOSIGNAL);
  } while (n < 0 && errno == EINTR);
  return n;
}

void HttpConnection::get_remote_ip_and_port(std::string& ip, int& port) const {
  addressOf(::getpeername, socket_, ip, port);
}

void HttpConnection::get_local_ip_and_port(std::string& ip, int& port) const {
  addressOf(::getsockname, socket_, ip, port);
}

void HttpConnection::lingerAndClose() {
  ::shutdown(socket_, SHUT_WR);
  const auto deadline = std::chrono::steady_clock::now() + kLinger;
  char dropped[16384];
  for (;;) {
    const auto left = deadline - std::chrono::steady_clock::now();
    if (left <= left.zero() || !waitFor(POLLIN, std::chrono::ceil<std::chrono::microseconds>(left))) break;
    if (::recv(socket_, dropped, sizeof(dropped), 0) <= 0) break;
  }
  ::close(socket_);
}

}  // namespace gsparql::server
