// The SPARQL Protocol server in this process, on WatDiv SF1, through
// cpp-httplib's client.
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <sstream>

#include "server_fixture.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

// Enumerates about 10^10 pairs of triples before it counts: runs until stopped.
const char* kEndlessQuery = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f FILTER(?c != ?f) }";
// Every two-step path: a streamed result of millions of rows.
const char* kLongResult = "SELECT * WHERE { ?a ?p ?b . ?b ?q ?c }";

std::string queryPath(const std::string& query, const std::string& extra = "") {
  return "/sparql?query=" + httplib::detail::encode_query_param(query) + extra;
}

httplib::Result get(const TestServer& server, const std::string& query, const std::string& accept,
                    const std::string& extra = "") {
  return server.client().Get(queryPath(query, extra).c_str(), {{"Accept", accept}});
}

std::string apiOutput(const std::string& query, ResultFormat format) {
  std::ostringstream out;
  sf1().queryTo(query, out, format);
  return out.str();
}

}  // namespace

TEST_CASE("GET, form POST and direct POST give the rows of Database::query") {
  TestServer server;
  for (const std::string& name : watdivNames()) {
    CAPTURE(name);
    const std::string query = watdivQuery(name);
    const auto expected = sortedRowsOf(sf1().query(query));
    const std::string tsv = "text/tab-separated-values";
    auto byGet = get(server, query, tsv);
    auto byForm = server.client().Post("/sparql", {{"Accept", tsv}}, formBody({{"query", query}}),
                                       "application/x-www-form-urlencoded");
    auto direct = server.client().Post("/sparql", {{"Accept", tsv}}, query, "application/sparql-query");
    for (auto* res : {&byGet, &byForm, &direct}) {
      REQUIRE(*res);
      CHECK((*res)->status == 200);
      CHECK((*res)->get_header_value("Content-Type") == tsv);
      CHECK(sortedTsvRows((*res)->body) == expected);
    }
  }
}

TEST_CASE("every result format is what the API writes, under its media type") {
  TestServer server;
  const std::string select = watdivQuery("L3_10");
  const std::string ask = "ASK { ?s <http://schema.org/caption> ?o }";
  const std::string construct = "CONSTRUCT { ?s <http://e/caption> ?o } WHERE { ?s <http://schema.org/caption> ?o } LIMIT 20";
  const struct {
    std::string query, accept;
    ResultFormat format;
  } cases[] = {
      {select, "application/sparql-results+json", ResultFormat::Json},
      {select, "application/sparql-results+xml", ResultFormat::Xml},
      {select, "text/csv", ResultFormat::Csv},
      {select, "text/tab-separated-values", ResultFormat::Tsv},
      {ask, "application/sparql-results+json", ResultFormat::Json},
      {ask, "application/sparql-results+xml", ResultFormat::Xml},
      {ask, "text/csv", ResultFormat::Csv},
      {ask, "text/tab-separated-values", ResultFormat::Tsv},
      {construct, "application/n-triples", ResultFormat::NTriples},
      {construct, "text/turtle", ResultFormat::Turtle},
  };
  for (const auto& c : cases) {
    CAPTURE(c.query);
    CAPTURE(c.accept);
    auto res = get(server, c.query, c.accept);
    REQUIRE(res);
    CHECK(res->status == 200);
    CHECK(res->get_header_value("Content-Type") == c.accept);
    CHECK(res->body == apiOutput(c.query, c.format));
  }
}

TEST_CASE("Accept q-values and format= pick the format, and nothing acceptable is 406") {
  TestServer server;
  const std::string query = watdivQuery("S1_08");
  auto xml = get(server, query, "text/csv;q=0.5, application/sparql-results+xml;q=0.9");
  REQUIRE(xml);
  CHECK(xml->get_header_value("Content-Type") == "application/sparql-results+xml");
  auto csv = get(server, query, "application/sparql-results+json", "&format=csv");
  REQUIRE(csv);
  CHECK(csv->get_header_value("Content-Type") == "text/csv");
  CHECK(csv->body == apiOutput(query, ResultFormat::Csv));
  auto none = get(server, query, "image/png");
  REQUIRE(none);
  CHECK(none->status == 406);
  CHECK(none->body.find("no acceptable format") != std::string::npos);
  auto graphForSelect = get(server, query, "*/*", "&format=ttl");
  REQUIRE(graphForSelect);
  CHECK(graphForSelect->status == 406);
}

TEST_CASE("a bad query is 400 with its line and column, and so is an unsupported feature") {
  TestServer server;
  auto syntax = get(server, "SELECT ?x WHERE {\n  ?x ?y }", "*/*");
  REQUIRE(syntax);
  CHECK(syntax->status == 400);
  CHECK(syntax->body.rfind("2:9: syntax error", 0) == 0);
  auto graph = get(server, "SELECT * WHERE { GRAPH ?g { ?s ?p ?o } }", "*/*");
  REQUIRE(graph);
  CHECK(graph->status == 400);
  CHECK(graph->body.find("at 1:18 is not supported yet") != std::string::npos);
  auto noQuery = server.client().Get("/sparql");
  REQUIRE(noQuery);
  CHECK(noQuery->status == 400);
}

TEST_CASE("a request body over the limit is 413") {
  server::ServerOptions options;
  options.maxRequestBytes = 64 << 10;
  TestServer server(options);
  const std::string big = "SELECT * WHERE { ?s ?p ?o } #" + std::string(100 << 10, 'x');
  auto res = server.client().Post("/sparql", big, "application/sparql-query");
  REQUIRE(res);
  CHECK(res->status == 413);
  auto small = server.client().Post("/sparql", "ASK {}", "application/sparql-query");
  REQUIRE(small);
  CHECK(small->status == 200);
}

TEST_CASE("CORS: every answer allows any origin, and preflights are answered") {
  TestServer server;
  auto res = get(server, "ASK {}", "*/*");
  REQUIRE(res);
  CHECK(res->get_header_value("Access-Control-Allow-Origin") == "*");
  auto preflight = server.client().Options("/sparql", {{"Origin", "http://example.org"},
                                                       {"Access-Control-Request-Method", "POST"},
                                                       {"Access-Control-Request-Headers", "content-type"}});
  REQUIRE(preflight);
  CHECK(preflight->status == 204);
  CHECK(preflight->get_header_value("Access-Control-Allow-Origin") == "*");
  CHECK(preflight->get_header_value("Access-Control-Allow-Methods").find("POST") != std::string::npos);
  CHECK(preflight->get_header_value("Access-Control-Allow-Headers").find("Content-Type") != std::string::npos);
}

TEST_CASE("timeout= stops a query, capped by the server's timeout") {
  server::ServerOptions options;
  options.query.timeout = std::chrono::milliseconds(300);
  TestServer server(options);
  auto asked = get(server, kEndlessQuery, "*/*", "&timeout=0.05");
  REQUIRE(asked);
  CHECK(asked->status == 503);
  CHECK(asked->body.find("timed out after 0.05 s") != std::string::npos);
  auto capped = get(server, kEndlessQuery, "*/*", "&timeout=1000");
  REQUIRE(capped);
  CHECK(capped->status == 503);
  CHECK(capped->body.find("timed out after 0.3 s") != std::string::npos);
  auto afterwards = get(server, "ASK {}", "*/*");
  REQUIRE(afterwards);
  CHECK(afterwards->status == 200);
}

TEST_CASE("the row limit: an error before the response starts, a cut stream after") {
  server::ServerOptions options;
  options.query.maxRows = 1000;
  options.windowBytes = 4096;
  {
    TestServer server(options);
    auto small = get(server, "SELECT * WHERE { ?s ?p ?o } LIMIT 1000", "text/tab-separated-values");
    REQUIRE(small);
    CHECK(small->status == 200);
    CHECK(sortedTsvRows(small->body).size() == 1000);
    // Its first batch of rows is over the limit: nothing was written, the status says so.
    auto large = get(server, "SELECT * WHERE { ?s ?p ?o }", "text/tab-separated-values");
    REQUIRE(large);
    CHECK(large->status == 503);
    CHECK(large->body.find("more than 1000 rows") != std::string::npos);
  }
  // Streamed past the first window, then over the limit: the transfer ends
  // early, which the client reports as an error.
  options.query.maxRows = 100000;  // of the 106012 triples, found a predicate at a time
  TestServer server(options);
  auto streamed = get(server, "SELECT * WHERE { ?s ?p ?o }", "text/tab-separated-values");
  CHECK(!streamed);
  auto afterwards = get(server, "ASK {}", "*/*");
  REQUIRE(afterwards);
  CHECK(afterwards->status == 200);
}

TEST_CASE("updates are refused: 403 read-only, 401 without the token, else 501") {
  const std::string update = "INSERT DATA { <http://e/s> <http://e/p> <http://e/o> }";
  auto post = [&](const TestServer& server, const httplib::Headers& headers, bool direct) {
    return direct ? server.client().Post("/sparql", headers, update, "application/sparql-update")
                  : server.client().Post("/sparql", headers, formBody({{"update", update}}),
                                         "application/x-www-form-urlencoded");
  };
  for (const bool direct : {true, false}) {
    CAPTURE(direct);
    {
      TestServer open;
      auto res = post(open, {}, direct);
      REQUIRE(res);
      CHECK(res->status == 501);
      CHECK(res->body == "SPARQL Update is not supported yet\n");
    }
    {
      server::ServerOptions options;
      options.readOnly = true;
      TestServer readOnly(options);
      auto res = post(readOnly, {}, direct);
      REQUIRE(res);
      CHECK(res->status == 403);
    }
    {
      server::ServerOptions options;
      options.token = "s3cret";
      TestServer guarded(options);
      auto without = post(guarded, {}, direct);
      REQUIRE(without);
      CHECK(without->status == 401);
      CHECK(without->get_header_value("WWW-Authenticate") == "Bearer");
      auto wrong = post(guarded, {{"Authorization", "Bearer guess"}}, direct);
      REQUIRE(wrong);
      CHECK(wrong->status == 401);
      auto with = post(guarded, {{"Authorization", "Bearer s3cret"}}, direct);
      REQUIRE(with);
      CHECK(with->status == 501);
    }
  }
}

TEST_CASE("explain=true gives the plan as text, and Server-Timing the timings") {
  TestServer server;
  const std::string query = watdivQuery("L3_10");
  auto plan = get(server, query, "*/*", "&explain=true");
  REQUIRE(plan);
  CHECK(plan->status == 200);
  CHECK(plan->get_header_value("Content-Type") == "text/plain; charset=utf-8");
  CHECK(plan->body.find("BgpScan") != std::string::npos);
  CHECK(plan->body.find("time: parse") != std::string::npos);
  auto res = get(server, query, "*/*");
  REQUIRE(res);
  const std::string timing = res->get_header_value("Server-Timing");
  CHECK(timing.find("queue;dur=") == 0);
  CHECK(timing.find("execute;dur=") != std::string::npos);
}

TEST_CASE("16 clients with 20 queries each all get their right answers") {
  server::ServerOptions options;
  options.threads = 4;
  TestServer server(options);
  std::vector<std::vector<std::string>> expected;
  for (const std::string& name : watdivNames()) expected.push_back(sortedRowsOf(sf1().query(watdivQuery(name))));
  std::atomic<int> right{0}, wrong{0};
  std::vector<std::thread> clients;
  for (int c = 0; c < 16; ++c) {
    clients.emplace_back([&, c] {
      httplib::Client client = server.client();
      for (int i = 0; i < 20; ++i) {
        const size_t q = static_cast<size_t>(c * 20 + i) % watdivNames().size();
        auto res = client.Get(queryPath(watdivQuery(watdivNames()[q])).c_str(),
                              {{"Accept", "text/tab-separated-values"}});
        (res && res->status == 200 && sortedTsvRows(res->body) == expected[q] ? right : wrong)++;
      }
    });
  }
  for (auto& t : clients) t.join();
  CHECK(right == 320);
  CHECK(wrong == 0);
}

TEST_CASE("a client that leaves mid-result stops its query while the others are served") {
  server::ServerOptions options;
  options.threads = 1;
  options.queueLength = 0;
  options.windowBytes = 4096;
  TestServer server(options);
  // Read the first part of a long streamed result, then leave.
  const int sock = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(server.port()));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::connect(sock, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0);
  const std::string request = "GET " + queryPath(kLongResult) + " HTTP/1.1\r\nHost: x\r\nAccept: text/tab-separated-values\r\n\r\n";
  REQUIRE(::write(sock, request.data(), request.size()) == static_cast<ssize_t>(request.size()));
  char buffer[65536];
  size_t received = 0;
  while (received < 100000) {
    const ssize_t n = ::read(sock, buffer, sizeof(buffer));
    REQUIRE(n > 0);
    received += static_cast<size_t>(n);
  }
  CHECK(std::string(buffer, 15) != "");  // got a response
  ::close(sock);
  // The one worker is free again once the query noticed (503 until then).
  const std::string query = watdivQuery("S1_08");
  const auto expected = sortedRowsOf(sf1().query(query));
  httplib::Result res{nullptr, httplib::Error::Unknown};
  for (int attempt = 0; attempt < 600; ++attempt) {
    res = get(server, query, "text/tab-separated-values");
    if (res && res->status != 503) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  REQUIRE(res);
  CHECK(res->status == 200);
  CHECK(sortedTsvRows(res->body) == expected);
}

TEST_CASE("all workers busy and the queue full: 503") {
  server::ServerOptions options;
  options.threads = 1;
  options.queueLength = 0;
  options.query.timeout = std::chrono::seconds(30);
  TestServer server(options);
  auto isBusy = [](const httplib::Result& r) { return r && r->status == 503 && r->body.find("busy") != std::string::npos; };
  // The long query retries until it has the worker; the short ones until it does.
  std::thread busy([&] {
    while (isBusy(get(server, kEndlessQuery, "*/*", "&timeout=3"))) {
    }
  });
  httplib::Result refused{nullptr, httplib::Error::Unknown};
  for (int attempt = 0; attempt < 3000 && !isBusy(refused); ++attempt) {
    refused = get(server, "ASK {}", "*/*");
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  busy.join();
  REQUIRE(refused);
  CHECK(refused->status == 503);
  CHECK(refused->body.find("the server is busy") != std::string::npos);
  CHECK(refused->get_header_value("Retry-After") == "1");
}

TEST_CASE("the query page is served at /") {
  server::ServerOptions options;
  options.webDir = GSPARQL_WEB_DIR;
  TestServer server(options);
  auto page = server.client().Get("/");
  REQUIRE(page);
  CHECK(page->status == 200);
  CHECK(page->body.find("new Yasgui(") != std::string::npos);
  if (!std::filesystem::exists(std::filesystem::path(GSPARQL_WEB_DIR) / "node_modules")) {
    MESSAGE("web/node_modules is missing (run npm ci in web/): YASGUI itself not checked");
    return;
  }
  auto yasgui = server.client().Get("/node_modules/@zazuko/yasgui/build/yasgui.min.js");
  REQUIRE(yasgui);
  CHECK(yasgui->status == 200);
  TestServer without;
  auto missing = without.client().Get("/");
  REQUIRE(missing);
  CHECK(missing->status == 404);
  CHECK(missing->body.find("npm ci") != std::string::npos);
}
