#pragma once
// One client connection of `gsparql serve`: the cpp-httplib stream that its
// requests are read from and its responses written to, on the socket that
// http_server.h's loop hands it. cpp-httplib 0.11.4 gives its handlers
// neither the socket nor a way to close the connection, and skips a header
// line it cannot parse without a word; through this stream the server gets
// - whether the client has gone (closed or reset its end), so that the
//   query it left stops (sparql_server.cpp);
// - a close after a response whose request body was not read (a 413 before
//   the body, a 400 for a broken request head), so that the body is never
//   read as the next request;
// - whether a line of the request's head was no "name: value" line;
// - a request target with '?' in its query (RFC 3986 3.4 allows it, Apache
//   Jena's clients send queries so), which cpp-httplib 0.11.4 refuses: each
//   '?' after the first reaches it percent-encoded, the same character once
//   the query is decoded.
// cpp-httplib serves a connection on one thread, from its first byte to its
// close, handlers and content providers included: current() is that
// thread's connection.
#include <httplib.h>

#include <array>
#include <chrono>
#include <functional>
#include <string>

namespace gsparql::server {

class HttpConnection final : public httplib::Stream {
 public:
  HttpConnection(int socket, std::chrono::microseconds readTimeout, std::chrono::microseconds writeTimeout);
  // Closes the socket (lingering after closeAfterResponse()).
  ~HttpConnection() override;
  HttpConnection(const HttpConnection&) = delete;
  HttpConnection& operator=(const HttpConnection&) = delete;

  // The connection the calling thread serves; nullptr on other threads.
  static HttpConnection* current();

  // Waits for the next request's first byte, up to `idle`; false once the
  // client closed, on timeout, or when `serving` turns false (asked a few
  // times a second).
  bool awaitRequest(std::chrono::milliseconds idle, const std::function<bool()>& serving);
  // A new request begins: its head is checked afresh.
  void beginRequest() { head_ = {}; }
  // A line of the head after the request line was not "name:value" ended by
  // CRLF (a token for name): a line cpp-httplib skipped.
  bool malformedHead() const { return head_.malformed; }
  // The client closed or reset its end: nobody reads the answer. (A client
  // that half-closes after its request reads as gone too.)
  bool clientLeft() const;
  // No further request on this connection: its request body was not read.
  void closeAfterResponse() { closing_ = true; }
  bool closing() const { return closing_; }

  bool is_readable() const override;
  bool is_writable() const override;
  ssize_t read(char* ptr, size_t size) override;
  ssize_t write(const char* ptr, size_t size) override;
  void get_remote_ip_and_port(std::string& ip, int& port) const override;
  void get_local_ip_and_port(std::string& ip, int& port) const override;
  int socket() const override { return socket_; }

 private:
  // Follows a request's head byte by byte as cpp-httplib reads it (its line
  // reader takes one byte at a time), up to the empty line that ends it.
  struct HeadCheck {
    bool requestLineRead = false, done = false, malformed = false;
    unsigned questionMarks = 0;  // in the request line
    std::string line;
    void scan(char c);
    // `c`, just scanned, is a '?' of the request target's query.
    bool inQuery(char c) const { return c == '?' && !requestLineRead && questionMarks > 1; }
  };
  // Copies what buffer_ holds of the request's head into `ptr`, escaping
  // each '?' of the query (see above); what does not fit waits in escaped_.
  size_t readHead(char* ptr, size_t size);

  bool waitFor(short events, std::chrono::microseconds timeout) const;
  void lingerAndClose();

  const int socket_;
  const std::chrono::microseconds readTimeout_, writeTimeout_;
  std::array<char, 16384> buffer_;
  size_t begin_ = 0, end_ = 0;  // what buffer_ holds that was not read yet
  std::string escaped_;  // the rest of a '?' percent-encoded, read before buffer_
  HeadCheck head_;
  bool closing_ = false;
};

}  // namespace gsparql::server
