// The SPARQL Protocol server in this process, on WatDiv SF1, through
// cpp-httplib's client.
#include <doctest/doctest.h>

#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <sstream>
#include <thread>

#include "server_fixture.h"
#include "storage/generations.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

// A search from every vertex that reaches every other: runs for minutes on
// SF1, until stopped. (A product past the memory budget fails at once.)
const char* kEndlessQuery = "SELECT (COUNT(*) AS ?n) WHERE { ?x (!<http://x/none>|^!<http://x/none>)* ?y }";
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
  Sf1Server server;
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
      CHECK((*res)->get_header_value("Content-Type") == tsv + "; charset=utf-8");
      CHECK(sortedTsvRows((*res)->body) == expected);
    }
  }
}

TEST_CASE("every result format is what the API writes, under its media type") {
  Sf1Server server;
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
      {construct, "application/n-quads", ResultFormat::NQuads},
      {construct, "application/trig", ResultFormat::TriG},
      {construct, "application/rdf+xml", ResultFormat::RdfXml},
      {construct, "application/ld+json", ResultFormat::JsonLd},
  };
  for (const auto& c : cases) {
    CAPTURE(c.query);
    CAPTURE(c.accept);
    auto res = get(server, c.query, c.accept);
    REQUIRE(res);
    CHECK(res->status == 200);
    // CSV and TSV default to US-ASCII without a charset (RFC 4180 3).
    const bool text = c.format == ResultFormat::Csv || c.format == ResultFormat::Tsv;
    CHECK(res->get_header_value("Content-Type") == c.accept + (text ? "; charset=utf-8" : ""));
    CHECK(res->body == apiOutput(c.query, c.format));
  }
}

TEST_CASE("Accept q-values and format= pick the format, and nothing acceptable is 406") {
  Sf1Server server;
  const std::string query = watdivQuery("S1_08");
  auto xml = get(server, query, "text/csv;q=0.5, application/sparql-results+xml;q=0.9");
  REQUIRE(xml);
  CHECK(xml->get_header_value("Content-Type") == "application/sparql-results+xml");
  auto csv = get(server, query, "application/sparql-results+json", "&format=csv");
  REQUIRE(csv);
  CHECK(csv->get_header_value("Content-Type") == "text/csv; charset=utf-8");
  CHECK(csv->body == apiOutput(query, ResultFormat::Csv));
  auto none = get(server, query, "image/png");
  REQUIRE(none);
  CHECK(none->status == 406);
  CHECK(none->body.find("no acceptable format") != std::string::npos);
  auto graphForSelect = get(server, query, "*/*", "&format=ttl");
  REQUIRE(graphForSelect);
  CHECK(graphForSelect->status == 406);
}

TEST_CASE("relative IRIs resolve against the endpoint's URL, and a Host header that makes no IRI breaks nothing") {
  Sf1Server server;
  const std::string query = "SELECT (STR(<rel>) AS ?s) {}";
  auto res = server.client().Get(("/sparql?query=" + httplib::detail::encode_query_param(query)).c_str(),
                                 {{"Accept", "text/tab-separated-values"}, {"Host", "example.org:7878"}});
  REQUIRE(res);
  CHECK(res->status == 200);
  CHECK(res->body == "?s\n\"http://example.org:7878/rel\"\n");
  for (const char* host : {"a b/<>\"", "", "\x01\xff", "[::1"}) {
    CAPTURE(host);
    auto odd = server.client().Get(("/sparql?query=" + httplib::detail::encode_query_param(query)).c_str(),
                                   {{"Accept", "text/tab-separated-values"}, {"Host", host}});
    REQUIRE(odd);
    CHECK((odd->status == 200 || odd->status == 400));
  }
  CHECK(get(server, "ASK {}", "*/*")->status == 200);  // still answering
}

TEST_CASE("a bad query is 400 with its line and column, and so is a refused SERVICE") {
  Sf1Server server;
  auto syntax = get(server, "SELECT ?x WHERE {\n  ?x ?y }", "*/*");
  REQUIRE(syntax);
  CHECK(syntax->status == 400);
  CHECK(syntax->body.rfind("2:9: syntax error", 0) == 0);
  auto service = get(server, "SELECT * WHERE { SERVICE <http://x/> { ?s ?p ?o } }", "*/*");
  REQUIRE(service);
  CHECK(service->status == 400);
  CHECK(service->body.find("SERVICE <http://x/> is refused: it is not an allowed endpoint (gsparql serve "
                           "--service-allow") != std::string::npos);
  // Parameters without a query (without any: the service description).
  auto noQuery = server.client().Get("/sparql?timeout=5");
  REQUIRE(noQuery);
  CHECK(noQuery->status == 400);
  CHECK(noQuery->body.find("no query") != std::string::npos);
}

TEST_CASE("a request body over the limit is 413") {
  server::ServerOptions options;
  options.maxRequestBytes = 64 << 10;
  Sf1Server server(options);
  const std::string big = "SELECT * WHERE { ?s ?p ?o } #" + std::string(100 << 10, 'x');
  auto res = server.client().Post("/sparql", big, "application/sparql-query");
  REQUIRE(res);
  CHECK(res->status == 413);
  auto small = server.client().Post("/sparql", "ASK {}", "application/sparql-query");
  REQUIRE(small);
  CHECK(small->status == 200);
}

TEST_CASE("CORS: every answer allows any origin, and preflights are answered") {
  Sf1Server server;
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
  Sf1Server server(options);
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

TEST_CASE("the memory budget is the server's: each worker's query gets a share of it") {
  server::ServerOptions options;
  options.threads = 2;
  options.query.memoryBudgetBytes = 30 << 20;  // a share each for 2 workers and an update: 10 MiB
  Sf1Server server(options);
  auto res = get(server, "SELECT ?a ?c WHERE { ?a ?p ?b . ?b ?q ?c } ORDER BY ?a", "*/*");
  REQUIRE(res);
  CHECK(res->status == 503);
  CHECK(res->body.find("memory budget of 10 MiB") != std::string::npos);
}

TEST_CASE("the row limit: an error before the response starts, a cut stream after") {
  server::ServerOptions options;
  options.query.maxRows = 1000;
  options.windowBytes = 4096;
  {
    Sf1Server server(options);
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
  Sf1Server server(options);
  auto streamed = get(server, "SELECT * WHERE { ?s ?p ?o }", "text/tab-separated-values");
  CHECK(!streamed);
  auto afterwards = get(server, "ASK {}", "*/*");
  REQUIRE(afterwards);
  CHECK(afterwards->status == 200);
}

namespace {

// A small database of its own for tests that update it.
struct UpdatableStore {
  TempDir dir;
  std::filesystem::path db = dir / "db";
  UpdatableStore() {
    writeFile(dir / "data.nt", "<http://e/a> <http://e/p> <http://e/b> .\n");
    Database::load(db, {(dir / "data.nt").string()});
  }
};

httplib::Result postUpdate(const TestServer& server, const std::string& update, const httplib::Headers& headers = {},
                           bool direct = true) {
  return direct ? server.client().Post("/sparql", headers, update, "application/sparql-update")
                : server.client().Post("/update", headers, formBody({{"update", update}}),
                                       "application/x-www-form-urlencoded");
}

// Updates are refused unless the server is started to accept them (--update).
server::ServerOptions withUpdates(server::ServerOptions options = {}) {
  options.updates = true;
  return options;
}

uint64_t tripleCount(const TestServer& server) {
  auto res = get(server, "SELECT (COUNT(*) AS ?n) { ?s ?p ?o }", "text/csv");
  REQUIRE(res);
  REQUIRE(res->status == 200);
  return std::stoull(res->body.substr(res->body.find('\n') + 1));
}

}  // namespace

TEST_CASE("default-graph-uri and named-graph-uri name the query's dataset, using-graph-uri the update's") {
  UpdatableStore store;
  writeFile(store.dir / "graphs.nq", "<http://e/x> <http://e/p> \"in g\" <http://e/g> .\n"
                                     "<http://e/y> <http://e/p> \"in h\" <http://e/h> .\n");
  Database::load(store.db, {(store.dir / "graphs.nq").string()});
  Sf1Server server(withUpdates(), store.db);
  auto rows = [&](const std::string& query, const std::string& extra) {
    auto res = get(server, query, "text/tab-separated-values", extra);
    REQUIRE(res);
    REQUIRE(res->status == 200);
    return res->body;
  };
  // The parameters win over FROM, as the Protocol says.
  CHECK(rows("SELECT ?o FROM <http://e/h> WHERE { ?s <http://e/p> ?o }", "&default-graph-uri=http://e/g") ==
        "?o\n\"in g\"\n");
  // Several make a default graph that is their merge.
  CHECK(rows("SELECT ?o WHERE { ?s <http://e/p> ?o } ORDER BY ?o",
             "&default-graph-uri=http://e/g&default-graph-uri=http://e/h") == "?o\n\"in g\"\n\"in h\"\n");
  CHECK(rows("SELECT ?g WHERE { GRAPH ?g { ?s ?p ?o } }", "&named-graph-uri=http://e/h") == "?g\n<http://e/h>\n");
  auto res = server.client().Post("/sparql?using-graph-uri=http://e/g", {},
                                  "INSERT { ?s <http://e/q> ?o } WHERE { ?s <http://e/p> ?o }", "application/sparql-update");
  REQUIRE(res);
  CHECK(res->status == 200);
  CHECK(rows("SELECT ?s WHERE { ?s <http://e/q> ?o }", "") == "?s\n<http://e/x>\n");
  auto bad = get(server, "ASK {}", "*/*", "&default-graph-uri=not%20an%20iri");
  REQUIRE(bad);
  CHECK(bad->status == 400);
  CHECK(bad->body.find("absolute IRI") != std::string::npos);
}

TEST_CASE("updates by direct and form POST are applied and seen by the next query") {
  UpdatableStore store;
  Sf1Server server(withUpdates(), store.db);
  for (const bool direct : {true, false}) {
    CAPTURE(direct);
    const std::string subject = direct ? "<http://e/direct>" : "<http://e/form>";
    auto res = postUpdate(server, "INSERT DATA { " + subject + " <http://e/p> 1 }", {}, direct);
    REQUIRE(res);
    CHECK(res->status == 200);
    CHECK(res->body.find("update committed") != std::string::npos);
    auto ask = get(server, "ASK { " + subject + " <http://e/p> 1 }", "text/csv");
    REQUIRE(ask);
    CHECK(ask->body.find("true") != std::string::npos);
  }
  CHECK(tripleCount(server) == 3);
  CHECK(sortedDump(store.db).size() == 3);  // on disk, for any other reader
}

TEST_CASE("bad updates get 400 with the position, LOAD of the server files is refused") {
  UpdatableStore store;
  Sf1Server server(withUpdates(), store.db);
  auto syntax = postUpdate(server, "INSERT DATA { ?x <http://e/p> 1 }");
  REQUIRE(syntax);
  CHECK(syntax->status == 400);
  CHECK(syntax->body.find("1:15: variables are not allowed in INSERT DATA") != std::string::npos);
  auto load = postUpdate(server, "LOAD <file:///etc/passwd>");
  REQUIRE(load);
  CHECK(load->status == 400);
  CHECK(load->body.find("LOAD is not allowed here") != std::string::npos);
  auto byGet = server.client().Get(("/sparql?update=" + httplib::detail::encode_query_param("CLEAR ALL")).c_str());
  REQUIRE(byGet);
  CHECK(byGet->status == 400);
  CHECK(tripleCount(server) == 1);
}

TEST_CASE("updates are refused by default and read-only (403), and without the token (401)") {
  UpdatableStore store;
  const std::string update = "INSERT DATA { <http://e/s> <http://e/p> <http://e/o> }";
  for (const bool direct : {true, false}) {
    CAPTURE(direct);
    {
      Sf1Server byDefault({}, store.db);
      auto res = postUpdate(byDefault, update, {}, direct);
      REQUIRE(res);
      CHECK(res->status == 403);
      CHECK(res->body.find("--update") != std::string::npos);
      CHECK(tripleCount(byDefault) == 1);
    }
    for (const bool withToken : {false, true}) {  // --read-only wins over a token
      server::ServerOptions options = withUpdates();
      options.readOnly = true;
      if (withToken) options.token = "s3cret";
      Sf1Server readOnly(options, store.db);
      auto res = postUpdate(readOnly, update, {{"Authorization", "Bearer s3cret"}}, direct);
      REQUIRE(res);
      CHECK(res->status == 403);
      CHECK(res->body.find("read-only") != std::string::npos);
    }
    server::ServerOptions options;
    options.token = "s3cret";
    Sf1Server guarded(options, store.db);
    auto without = postUpdate(guarded, update, {}, direct);
    REQUIRE(without);
    CHECK(without->status == 401);
    CHECK(without->get_header_value("WWW-Authenticate") == "Bearer realm=\"gsparql\"");
    auto wrong = postUpdate(guarded, update, {{"Authorization", "Bearer guess"}}, direct);
    REQUIRE(wrong);
    CHECK(wrong->status == 401);
    CHECK(tripleCount(guarded) == 1);
    auto wrongCase = postUpdate(guarded, update, {{"Authorization", "Bearer S3CRET"}}, direct);
    REQUIRE(wrongCase);
    CHECK(wrongCase->status == 401);  // the token is case-sensitive
    auto with = postUpdate(guarded, update, {{"Authorization", "Bearer s3cret"}}, direct);
    REQUIRE(with);
    CHECK(with->status == 200);
    CHECK(tripleCount(guarded) == 2);
    // The scheme is not (RFC 9110 11.1).
    auto lowerCase = postUpdate(guarded, "DELETE DATA { <http://e/s> <http://e/p> <http://e/o> }",
                                {{"Authorization", "bearer  s3cret"}}, direct);
    REQUIRE(lowerCase);
    CHECK(lowerCase->status == 200);
    CHECK(tripleCount(guarded) == 1);
  }
}

TEST_CASE("an update from a web page of another origin is refused (403), unless the origin is listed") {
  UpdatableStore store;
  server::ServerOptions options = withUpdates();
  options.corsOrigins = {"http://friend.example:8080"};
  Sf1Server server(options, store.db);
  const std::string own = "http://127.0.0.1:" + std::to_string(server.port());
  for (const bool direct : {true, false}) {
    CAPTURE(direct);
    for (const char* foreign : {"http://evil.example", "null", "http://friend.example", "https://friend.example:8080",
                                "http://127.0.0.1"}) {
      CAPTURE(foreign);
      auto res = postUpdate(server, "CLEAR ALL", {{"Origin", foreign}}, direct);
      REQUIRE(res);
      CHECK(res->status == 403);
      CHECK(res->body.find("--cors-origin") != std::string::npos);
    }
    CHECK(tripleCount(server) == 1);  // nothing applied
    // A query from any origin is answered.
    auto query = server.client().Post("/sparql", {{"Origin", "http://evil.example"}}, "ASK {}", "application/sparql-query");
    REQUIRE(query);
    CHECK(query->status == 200);
  }
  // The server's own pages (origins compare without regard to case), a
  // listed origin, and clients that send no Origin may write.
  const auto subject = [](int i) { return "<http://e/w" + std::to_string(i) + ">"; };
  int inserted = 0;
  for (const std::string& origin : {own, std::string("HTTP://127.0.0.1:") + std::to_string(server.port()),
                                    std::string("http://friend.example:8080"), std::string()}) {
    CAPTURE(origin);
    httplib::Headers headers;
    if (!origin.empty()) headers.emplace("Origin", origin);
    auto res = postUpdate(server, "INSERT DATA { " + subject(++inserted) + " <http://e/p> 1 }", headers, false);
    REQUIRE(res);
    CHECK(res->status == 200);
  }
  CHECK(tripleCount(server) == 1 + inserted);
}

TEST_CASE("preflights for writes are approved only for the origins that may write") {
  server::ServerOptions options = withUpdates();
  options.corsOrigins = {"http://friend.example"};
  Sf1Server server(options);
  auto preflight = [&](const std::string& path, const std::string& origin, const std::string& headers) {
    auto res = server.client().Options(path.c_str(), {{"Origin", origin},
                                                      {"Access-Control-Request-Method", "POST"},
                                                      {"Access-Control-Request-Headers", headers}});
    REQUIRE(res);
    CHECK(res->status == 204);
    return res->has_header("Access-Control-Allow-Origin") ? res->get_header_value("Access-Control-Allow-Origin")
                                                          : std::string("(none)");
  };
  CHECK(preflight("/sparql", "http://evil.example", "content-type") == "*");  // a query, perhaps
  CHECK(preflight("/update", "http://evil.example", "content-type") == "(none)");
  CHECK(preflight("/sparql", "http://evil.example", "authorization, content-type") == "(none)");
  CHECK(preflight("/update", "http://friend.example", "content-type") == "http://friend.example");
  CHECK(preflight("/sparql", "http://friend.example", "Authorization") == "http://friend.example");
}

TEST_CASE("concurrent clients' updates all land, while queries run") {
  UpdatableStore store;
  Sf1Server server(withUpdates(), store.db);
  constexpr int kClients = 6, kUpdates = 4;
  std::atomic<int> ok{0};
  std::vector<std::thread> clients;
  for (int c = 0; c < kClients; ++c) {
    clients.emplace_back([&, c] {
      for (int u = 0; u < kUpdates; ++u) {
        const std::string triple = "<http://e/c" + std::to_string(c) + "> <http://e/n> " + std::to_string(u);
        auto res = postUpdate(server, "INSERT DATA { " + triple + " }");
        auto query = get(server, "SELECT * { ?s ?p ?o }", "text/csv");
        if (res && res->status == 200 && query && query->status == 200) ++ok;
      }
    });
  }
  for (auto& t : clients) t.join();
  CHECK(ok == kClients * kUpdates);
  CHECK(tripleCount(server) == 1 + kClients * kUpdates);
}

TEST_CASE("an update that makes the delta due a merge is answered first, and the merge runs in the background") {
  TempDir dir;
  std::string data;
  for (int i = 0; i < 25'000; ++i) data += "<http://e/s" + std::to_string(i) + "> <http://e/p> <http://e/o> .\n";
  writeFile(dir / "data.nt", data);
  const auto db = dir / "db";
  Database::load(db, {(dir / "data.nt").string()});
  Sf1Server server(withUpdates(), db);
  auto res = postUpdate(server, "INSERT { ?s <http://e/copy> ?o } WHERE { ?s <http://e/p> ?o }");
  REQUIRE(res);
  CHECK(res->status == 200);
  CHECK(res->body.find("(generation 1 + delta file 1)") != std::string::npos);  // answered before the merge
  // Queries read a consistent snapshot throughout: before the merge, during it and after.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (Database(db).statistics().deltaFiles > 0 && std::chrono::steady_clock::now() < deadline) {
    CHECK(tripleCount(server) == 50'000);
  }
  CHECK(Database(db).statistics().generation == 2);
  CHECK(Database(db).statistics().deltaFiles == 0);
  CHECK(tripleCount(server) == 50'000);
  CHECK(postUpdate(server, "INSERT DATA { <http://e/x> <http://e/p> 1 }")->body.find("(generation 2 + delta file 1)") !=
        std::string::npos);
}

TEST_CASE("an update waits for another writer of the database (a load) instead of failing") {
  UpdatableStore store;
  Sf1Server server(withUpdates(), store.db);
  auto writer = std::make_unique<GenerationWriter>(store.db);  // as a load holds it
  std::thread finisher([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    writer.reset();  // the load gives up; the update may go on
  });
  const auto start = std::chrono::steady_clock::now();
  auto res = postUpdate(server, "INSERT DATA { <http://e/waited> <http://e/p> 1 }");
  finisher.join();
  REQUIRE(res);
  CHECK(res->status == 200);
  CHECK(std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(300));
  CHECK(tripleCount(server) == 2);
}

TEST_CASE("an update from another process is seen by the server's next query") {
  UpdatableStore store;
  Sf1Server server({}, store.db);
  CHECK(tripleCount(server) == 1);
  REQUIRE(runCli({"update", "--db", store.db.string(), "INSERT DATA { <http://e/x> <http://e/p> 2 }"}).exitCode == 0);
  CHECK(tripleCount(server) == 2);
}

TEST_CASE("explain=true gives the plan as text, and Server-Timing the timings") {
  Sf1Server server;
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
  Sf1Server server(options);
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

TEST_CASE("a request body of 1 GB gets 413 while the others are served") {
  Sf1Server server;
  const uint64_t bodyBytes = uint64_t{1} << (scaledCases(5) == 5 ? 30 : 28);  // 1 GB; 256 MB under ASan
  std::string response;
  std::thread sender([&] {
    const int sock = connectTo(server.port());
    if (sock < 0) return;
    const std::string head = "POST /sparql HTTP/1.1\r\nHost: x\r\nContent-Type: application/sparql-update\r\n"
                             "Content-Length: " + std::to_string(bodyBytes) + "\r\n\r\n";
    // MSG_NOSIGNAL: the server may close before the whole body is sent; the
    // write fails then (EPIPE) and the 413 is read, rather than SIGPIPE ending the test.
    bool sent = ::send(sock, head.data(), head.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(head.size());
    const std::string chunk(1 << 20, '#');
    for (uint64_t written = 0; sent && written < bodyBytes; written += chunk.size()) {
      sent = ::send(sock, chunk.data(), chunk.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(chunk.size());
    }
    char buffer[4096];
    const ssize_t n = ::read(sock, buffer, sizeof(buffer));
    if (n > 0) response.assign(buffer, static_cast<size_t>(n));
    ::close(sock);
  });
  const std::string query = watdivQuery("S1_08");
  const auto expected = sortedRowsOf(sf1().query(query));
  int answered = 0;
  for (int i = 0; i < 20; ++i) {
    auto res = get(server, query, "text/tab-separated-values");
    answered += res && res->status == 200 && sortedTsvRows(res->body) == expected;
  }
  sender.join();
  CHECK(answered == 20);
  CHECK(response.starts_with("HTTP/1.1 413"));
}

TEST_CASE("10,000 idle connections: the server keeps answering others") {
  rlimit limit{};
  REQUIRE(::getrlimit(RLIMIT_NOFILE, &limit) == 0);
  limit.rlim_cur = limit.rlim_max;
  ::setrlimit(RLIMIT_NOFILE, &limit);  // the server in this process needs as many descriptors as the clients
  const size_t wanted = static_cast<size_t>(scaledCases(10000));
  const size_t idle = std::min<size_t>(wanted, limit.rlim_cur > 400 ? (limit.rlim_cur - 200) / 2 : 0);
  if (idle < wanted) MESSAGE("only " << idle << " idle connections: the descriptor limit is " << limit.rlim_cur);
  Sf1Server server;
  std::vector<int> sockets;
  for (size_t i = 0; i < idle; ++i) {
    const int sock = connectTo(server.port());
    REQUIRE(sock >= 0);
    sockets.push_back(sock);
  }
  // A fixed pool of connection threads, each polling an idle connection
  // for 5 s, took minutes to get to this one.
  httplib::Client client = server.client();
  client.set_connection_timeout(30);
  client.set_read_timeout(30);
  const std::string query = watdivQuery("S1_08");
  const auto expected = sortedRowsOf(sf1().query(query));
  for (int i = 0; i < 3; ++i) {
    auto res = client.Get(queryPath(query).c_str(), {{"Accept", "text/tab-separated-values"}});
    REQUIRE(res);
    CHECK(res->status == 200);
    CHECK(sortedTsvRows(res->body) == expected);
  }
  for (int sock : sockets) ::close(sock);
}

TEST_CASE("a client that leaves mid-result stops its query while the others are served") {
  server::ServerOptions options;
  options.threads = 1;
  options.queueLength = 0;
  options.windowBytes = 4096;
  Sf1Server server(options);
  // Read the first part of a long streamed result, then leave.
  const int sock = connectTo(server.port());
  REQUIRE(sock >= 0);
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
  Sf1Server server(options);
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
  Sf1Server server(options);
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
  Sf1Server without;
  auto missing = without.client().Get("/");
  REQUIRE(missing);
  CHECK(missing->status == 404);
  CHECK(missing->body.find("npm ci") != std::string::npos);
}

namespace {

// `description` (Turtle) loaded by the loader (its reader is code apart from
// the writer of the description) into a database of its own, and `ask` run there.
bool askOfDescription(const std::string& description, const std::string& ask) {
  TempDir dir;
  writeFile(dir / "description.ttl", description);
  Database::load(dir / "db", {(dir / "description.ttl").string()});
  return Database(dir / "db").query("PREFIX sd: <http://www.w3.org/ns/sparql-service-description#>\n" + ask)
      .booleanValue();
}

}  // namespace

TEST_CASE("a GET on the endpoint without a query is the service description, in Turtle or N-Triples") {
  for (const bool updates : {false, true}) {
    CAPTURE(updates);
    server::ServerOptions options;
    options.updates = updates;
    Sf1Server server(options);
    const httplib::Result turtle = server.client().Get("/sparql", {{"Accept", "text/turtle"}});
    REQUIRE(turtle);
    CHECK(turtle->status == 200);
    CHECK(turtle->get_header_value("Content-Type") == "text/turtle");
    const std::string endpoint = "http://127.0.0.1:" + std::to_string(server.port()) + "/sparql";
    CHECK(askOfDescription(turtle->body, "ASK { ?s a sd:Service ; sd:endpoint <" + endpoint + "> ; "
                                         "sd:supportedLanguage sd:SPARQL11Query ; sd:defaultDataset ?d }"));
    CHECK(askOfDescription(turtle->body, "ASK { ?s sd:supportedLanguage sd:SPARQL11Update }") == updates);
    // Every syntax of rdf/rdf_formats.h that graphs are written in, and (for updates) read from.
    const std::string formats = "PREFIX f: <http://www.w3.org/ns/formats/>\n";
    CHECK(askOfDescription(turtle->body, formats + "ASK { ?s sd:resultFormat f:SPARQL_Results_JSON, f:Turtle, "
                                                   "f:N-Triples, f:N-Quads, f:TriG, f:RDF_XML, f:JSON-LD }"));
    CHECK(askOfDescription(turtle->body, formats + "ASK { ?s sd:inputFormat f:Turtle, f:N-Quads, f:TriG, f:RDF_XML, f:JSON-LD }") ==
          updates);

    const httplib::Result triples = server.client().Get("/query", {{"Accept", "application/n-triples"}});
    REQUIRE(triples);
    CHECK(triples->get_header_value("Content-Type") == "application/n-triples");
    CHECK(askOfDescription(triples->body, "ASK { ?s sd:endpoint <http://127.0.0.1:" + std::to_string(server.port()) +
                                              "/query> }"));
  }
  Sf1Server server;
  const httplib::Result json = server.client().Get("/sparql", {{"Accept", "application/sparql-results+json"}});
  REQUIRE(json);
  CHECK(json->status == 406);
}

TEST_CASE("a read-only replica on the writer's folder follows its updates, and /health says which snapshot each answers from") {
  // docs/server.md, "Replicas": one writer and read-only replicas behind a
  // load balancer whose health check asks /health.
  UpdatableStore store;
  TestServer writer(withUpdates(), store.db);
  server::ServerOptions readOnly;
  readOnly.readOnly = true;
  TestServer replica(readOnly, store.db);
  const auto health = [](const TestServer& server) {
    const httplib::Result res = server.client().Get("/health");
    REQUIRE(res);
    CHECK(res->status == 200);
    CHECK(res->get_header_value("Content-Type") == "application/json");
    return res->body;
  };
  const std::string before = health(replica);
  CHECK(before.find("\"triples\": 1") != std::string::npos);
  CHECK(before == health(writer));

  REQUIRE(postUpdate(writer, "INSERT DATA { <http://e/b> <http://e/p> <http://e/c> }")->status == 200);
  CHECK(postUpdate(replica, "INSERT DATA { <http://e/c> <http://e/p> <http://e/d> }")->status == 403);
  const std::string after = health(replica);
  CHECK(after != before);
  CHECK(after.find("\"triples\": 2") != std::string::npos);
  CHECK(after == health(writer));
  const httplib::Result rows = get(replica, "SELECT ?o { <http://e/b> <http://e/p> ?o }", "text/tab-separated-values");
  REQUIRE(rows);
  CHECK(sortedTsvRows(rows->body) == std::vector<std::string>{"<http://e/c>"});
  CHECK(replica.client().Post("/health", "", "text/plain")->status == 405);
}
