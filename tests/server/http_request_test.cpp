// What the server takes and refuses in a request's head and body (issue
// 45): forms up to the server's limit, a 413 that names the limit, at once
// for a Content-Length over it, 400 for a head line that is no header.
#include <doctest/doctest.h>

#include <chrono>

#include "server_fixture.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

server::ServerOptions withLimit(size_t maxRequestBytes) {
  server::ServerOptions options;
  options.maxRequestBytes = maxRequestBytes;
  return options;
}

std::string postHead(const std::string& extraHeaders) {
  return "POST /sparql HTTP/1.1\r\nHost: x\r\nContent-Type: application/sparql-query\r\n" + extraHeaders + "\r\n";
}

}  // namespace

TEST_CASE("a form POST is read up to the server's limit (not cpp-httplib's 8 KiB), and one over it is 413 naming the limit") {
  Sf1Server server(withLimit(64 << 10));
  const auto post = [&](size_t padding) {
    const std::string query = "ASK { ?s ?p ?o } #" + std::string(padding, 'x');
    return server.client().Post("/sparql", formBody({{"query", query}}), "application/x-www-form-urlencoded");
  };
  auto within = post(40 << 10);
  REQUIRE(within);
  CHECK(within->status == 200);
  CHECK(within->body.find("true") != std::string::npos);
  auto over = post(100 << 10);
  REQUIRE(over);
  CHECK(over->status == 413);
  CHECK(over->body.find("limit of 64 KiB") != std::string::npos);
}

TEST_CASE("a query by GET over the URL limit is 414 naming it, and POST with its limit") {
  Sf1Server server(withLimit(64 << 10));
  const auto get = [&](size_t padding) {
    const std::string query = "ASK { ?s ?p ?o } #" + std::string(padding, 'x');
    return server.client().Get(("/sparql?query=" + httplib::detail::encode_query_param(query)).c_str());
  };
  auto within = get(60 << 10);
  REQUIRE(within);
  CHECK(within->status == 200);
  auto over = get(70 << 10);
  REQUIRE(over);
  CHECK(over->status == 414);
  CHECK(over->body.find("limit of 64 KiB: send a long query by POST (up to 64 KiB)") != std::string::npos);
  auto after = get(10);  // the server answers on
  REQUIRE(after);
  CHECK(after->status == 200);
}

TEST_CASE("a chunked body over the limit is 413 naming the limit") {
  Sf1Server server(withLimit(64 << 10));
  const std::string chunk(100 << 10, '#');
  char size[16];
  std::snprintf(size, sizeof(size), "%zx", chunk.size());
  const std::string response = rawExchange(
      server.port(), postHead("Transfer-Encoding: chunked\r\n") + size + "\r\n" + chunk + "\r\n0\r\n\r\n");
  CHECK(response.starts_with("HTTP/1.1 413"));
  CHECK(response.find("limit of 64 KiB") != std::string::npos);
}

TEST_CASE("a Content-Length that is huge or no number is answered at once, and the connection closed") {
  Sf1Server server;
  const struct {
    std::string length;
    const char* status;
  } cases[] = {
      {"99999999999999999999999", "HTTP/1.1 400"},  // beyond 64 bits: no length Beast reads
      {"5000000", "HTTP/1.1 413"},  // over 4 MiB: no byte of the body is waited for
      {"-1", "HTTP/1.1 400"},
      {"12abc", "HTTP/1.1 400"},
      {"5, 6", "HTTP/1.1 400"},  // "5, 5" is one length (RFC 9110 8.6)
  };
  for (const auto& c : cases) {
    CAPTURE(c.length);
    const auto start = std::chrono::steady_clock::now();
    // rawExchange returns once the server closes the connection.
    const std::string response = rawExchange(server.port(), postHead("Content-Length: " + c.length + "\r\n"));
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(1));
    CHECK(response.starts_with(c.status));
    CHECK(response.find("Connection: close") != std::string::npos);
  }
  const std::string huge = rawExchange(server.port(), postHead("Content-Length: 99999999999\r\n"));
  CHECK(huge.find("limit of 4 MiB") != std::string::npos);
}

TEST_CASE("a line of the request's head that is no header line is 400") {
  Sf1Server server;
  const std::string get = "GET /sparql?query=ASK%7B%7D HTTP/1.1\r\nHost: x\r\n";
  // (A line folded onto the one before is obsolete but no error: RFC 9112
  // 5.2 lets the server read it as a space.)
  for (const std::string line : {"NoColonHere", "Bad Name: x", ": no name", "X-Bare: LF"}) {
    CAPTURE(line);
    const std::string end = line == "X-Bare: LF" ? "\n" : "\r\n";
    const std::string response = rawExchange(server.port(), get + line + end + "\r\n");
    CHECK(response.starts_with("HTTP/1.1 400"));
    CHECK(response.find("no 'name: value' header line") != std::string::npos);
  }
  const std::string fine = rawExchange(server.port(), get + "Connection: close\r\n\r\n");
  CHECK(fine.starts_with("HTTP/1.1 200"));
}

TEST_CASE("a query by GET with '?' left unencoded in it (RFC 3986, Jena's clients) is read as the same query") {
  Sf1Server server;
  auto get = [&](const std::string& target) {
    return rawExchange(server.port(), "GET " + target + " HTTP/1.1\r\nHost: x\r\nAccept: text/tab-separated-values\r\n"
                                      "Connection: close\r\n\r\n");
  };
  const std::string raw = get("/sparql?query=SELECT%20(COUNT(*)%20AS%20?n)%20WHERE%20%7B?s%20?p%20?o%7D");
  const std::string encoded = get("/sparql?query=SELECT%20(COUNT(*)%20AS%20%3Fn)%20WHERE%20%7B%3Fs%20%3Fp%20%3Fo%7D");
  CHECK(raw.starts_with("HTTP/1.1 200"));
  REQUIRE(encoded.starts_with("HTTP/1.1 200"));
  CHECK(raw.substr(raw.find("\r\n\r\n")) == encoded.substr(encoded.find("\r\n\r\n")));
  // A '?' in another parameter, and one as a parameter's last character.
  CHECK(get("/sparql?query=ASK%7B?s%20?p%20?o%7D&default-graph-uri=http://e/g?x").starts_with("HTTP/1.1 200"));
  CHECK(get("/sparql?query=ASK%7B%7D&x=?").starts_with("HTTP/1.1 200"));
}

TEST_CASE("a request line that cannot be read is 400 saying what a request line is, and the server answers on") {
  Sf1Server server;
  for (const std::string line : {"GET /sparql?query=ASK%7B%7D", "GET /a b c HTTP/1.1", "NOT-HTTP", "GET ??? HTTP/9"}) {
    CAPTURE(line);
    const std::string response = rawExchange(server.port(), line + "\r\nHost: x\r\n\r\n");
    CHECK(response.starts_with("HTTP/1.1 400"));
    CHECK(response.find("malformed request line") != std::string::npos);
  }
  CHECK(rawExchange(server.port(), "GET /sparql?query=ASK%7B?s%20?p%20?o%7D HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .starts_with("HTTP/1.1 200"));
}
