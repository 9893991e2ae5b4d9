// The Graph Store HTTP Protocol through the server (cpp-httplib's client):
// /data and the endpoints' graph= and default, and what the server refuses.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include "gsparql/database.h"
#include "support/test_support.h"
#include "test_server.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

const std::string kTurtle = "@prefix e: <http://e/> .\ne:alice e:knows e:bob , e:carol .\n";
const std::string kGraphG = "/data?graph=http%3A%2F%2Fe%2Fg";

// A server on a database of its own, holding one triple in the default graph.
struct GraphServer {
  TempDir dir;
  std::filesystem::path db = dir / "db";
  std::unique_ptr<TestServer> server;

  explicit GraphServer(server::ServerOptions options = updating()) {
    writeFile(dir / "data.nt", "<http://e/a> <http://e/p> <http://e/b> .\n");
    Database::load(db, {(dir / "data.nt").string()});
    server = std::make_unique<TestServer>(std::move(options), db);
  }

  static server::ServerOptions updating() {
    server::ServerOptions options;
    options.updates = true;
    return options;
  }

  httplib::Result put(const std::string& path, const std::string& body, const std::string& type = "text/turtle",
                      const httplib::Headers& headers = {}) const {
    return server->client().Put(path.c_str(), headers, body, type.c_str());
  }

  uint64_t triples() const { return Database(db).statistics().triples; }
};

}  // namespace

TEST_CASE("PUT, GET, HEAD, POST and DELETE of a graph on /data and on the query endpoints") {
  GraphServer store;
  auto put = store.put(kGraphG, kTurtle, "text/turtle; charset=utf-8");
  REQUIRE(put);
  CHECK(put->status == 201);
  for (const char* endpoint : {"/data", "/sparql", "/query"}) {
    CAPTURE(endpoint);
    auto get = store.server->client().Get((std::string(endpoint) + "?graph=http://e/g").c_str(),
                                          {{"Accept", "application/n-triples"}});
    REQUIRE(get);
    CHECK(get->status == 200);
    CHECK(get->get_header_value("Content-Type") == "application/n-triples; charset=utf-8");
    CHECK(get->body.find("<http://e/alice> <http://e/knows> <http://e/carol> .") != std::string::npos);
  }
  auto head = store.server->client().Head(kGraphG.c_str());
  REQUIRE(head);
  CHECK(head->status == 200);
  CHECK(head->get_header_value("Content-Type") == "text/turtle; charset=utf-8");
  auto post = store.server->client().Post("/sparql?graph=http://e/g", "<http://e/x> <http://e/y> <http://e/z> .",
                                          "application/n-triples");
  REQUIRE(post);
  CHECK(post->status == 204);
  CHECK(store.triples() == 4);
  auto drop = store.server->client().Delete(kGraphG.c_str());
  REQUIRE(drop);
  CHECK(drop->status == 204);
  CHECK(store.triples() == 1);
  auto byDefault = store.server->client().Get("/sparql?default", {{"Accept", "application/n-triples"}});
  REQUIRE(byDefault);
  CHECK(byDefault->body == "<http://e/a> <http://e/p> <http://e/b> .\n");
  auto query = store.server->client().Get("/sparql?query=ASK%7B%7D&default-graph-uri=http://e/g");
  REQUIRE(query);
  CHECK(query->status == 200);  // a query with its dataset is still a query
}

TEST_CASE("a URL under /data/ names its graph, and POST to /data makes one named in Location") {
  GraphServer store;
  const std::string base = "http://127.0.0.1:" + std::to_string(store.server->port());
  auto put = store.put("/data/people/1", kTurtle);
  REQUIRE(put);
  CHECK(put->status == 201);
  auto indirect = store.server->client().Get(("/data?graph=" + base + "/data/people/1").c_str());
  REQUIRE(indirect);
  CHECK(indirect->status == 200);
  auto made = store.server->client().Post("/data", kTurtle, "text/turtle");
  REQUIRE(made);
  CHECK(made->status == 201);
  const std::string location = made->get_header_value("Location");
  REQUIRE(location.starts_with(base + "/data/"));
  auto direct = store.server->client().Get(location.substr(base.size()).c_str());
  REQUIRE(direct);
  CHECK(direct->status == 200);
  CHECK(direct->body.find("carol") != std::string::npos);
}

TEST_CASE("a multipart POST adds each part's triples, each part's blank nodes its own") {
  GraphServer store;
  const std::string body = "preamble\r\n--sep\r\nContent-Disposition: form-data; name=\"a\"\r\nContent-Type: text/turtle\r\n\r\n"
                           "<http://e/a> <http://e/p> [ <http://e/q> 1 ] .\r\n--sep\r\n"
                           "Content-Type: application/n-triples; charset=utf-8\r\n\r\n"
                           "<http://e/b> <http://e/p> _:b1 .\n_:b1 <http://e/q> \"2\" .\r\n--sep--\r\nepilogue";
  auto res = store.server->client().Post(kGraphG.c_str(), body, "multipart/form-data; boundary=\"sep\"");
  REQUIRE(res);
  CHECK(res->status == 201);
  // Two blank nodes, one per part, though both parsers may label theirs alike.
  auto count = store.server->client().Get(
      "/sparql?query=SELECT%20(COUNT(DISTINCT%20%3Fx)%20AS%20%3Fn)%20%7B%20GRAPH%20%3Fg%20%7B%20%3Fs%20%3Chttp%3A%2F%2Fe%2Fp%3E%20%3Fx%20%7D%20%7D",
      {{"Accept", "text/csv"}});
  REQUIRE(count);
  CHECK(count->body == "n\r\n2\r\n");
}

TEST_CASE("bad Turtle is 400 with its position, another format 415, a missing graph 404: nothing changes") {
  GraphServer store;
  auto bad = store.put(kGraphG, "@prefix e: <http://e/> .\ne:a e:b .\n");
  REQUIRE(bad);
  CHECK(bad->status == 400);
  CHECK(bad->body.find("the request body:2:") != std::string::npos);
  auto json = store.put(kGraphG, "{}", "text/n3");
  REQUIRE(json);
  CHECK(json->status == 415);
  for (const std::string multipart : {"--b\r\nContent-Type: text/n3\r\n\r\n{}\r\n--b--\r\n",  // 415
                                      "no delimiter", "--b\r\nContent-Type: text/turtle\r\n", "--b\r\n\r\n<a> <b> <c> .\r\n--c--"}) {
    CAPTURE(multipart);
    auto res = store.server->client().Post(kGraphG.c_str(), multipart, "multipart/form-data; boundary=b");
    REQUIRE(res);
    CHECK(res->status == (multipart.find("text/n3") != std::string::npos ? 415 : 400));
  }
  for (const std::string method : {"GET", "HEAD", "DELETE"}) {
    CAPTURE(method);
    httplib::Request req;
    req.method = method;
    req.path = "/data?graph=http://e/none";
    auto res = store.server->client().send(req);
    REQUIRE(res);
    CHECK(res->status == 404);
  }
  auto unnamed = store.server->client().Get("/data");
  REQUIRE(unnamed);
  CHECK(unnamed->status == 400);
  CHECK(store.triples() == 1);
}

TEST_CASE("graph writes are refused as updates are: 403 without --update or read-only, 401 without the token") {
  {
    GraphServer byDefault(server::ServerOptions{});
    auto res = byDefault.put(kGraphG, kTurtle);
    REQUIRE(res);
    CHECK(res->status == 403);
    auto get = byDefault.server->client().Get("/data?default");
    REQUIRE(get);
    CHECK(get->status == 200);  // reads are for anyone
  }
  server::ServerOptions readOnly = GraphServer::updating();
  readOnly.readOnly = true;
  GraphServer refusing(readOnly);
  auto res = refusing.put(kGraphG, kTurtle);
  REQUIRE(res);
  CHECK(res->status == 403);
  CHECK(res->body.find("read-only") != std::string::npos);
  server::ServerOptions withToken;
  withToken.token = "s3cret";
  GraphServer guarded(withToken);
  auto wrong = guarded.put(kGraphG, kTurtle, "text/turtle", {{"Authorization", "Bearer guess"}});
  REQUIRE(wrong);
  CHECK(wrong->status == 401);
  auto crossOrigin = guarded.server->client().Delete("/data?default", {{"Authorization", "Bearer s3cret"},
                                                                       {"Origin", "http://elsewhere.example"}});
  REQUIRE(crossOrigin);
  CHECK(crossOrigin->status == 403);
  CHECK(guarded.triples() == 1);
  auto right = guarded.put(kGraphG, kTurtle, "text/turtle", {{"Authorization", "Bearer s3cret"}});
  REQUIRE(right);
  CHECK(right->status == 201);
}

TEST_CASE("a graph body over the request limit is 413") {
  server::ServerOptions options = GraphServer::updating();
  options.maxRequestBytes = 64 << 10;
  GraphServer store(options);
  std::string big;
  while (big.size() < (100 << 10)) big += "<http://e/s> <http://e/p> \"" + std::to_string(big.size()) + "\" .\n";
  auto res = store.put(kGraphG, big, "application/n-triples");
  REQUIRE(res);
  CHECK(res->status == 413);
  CHECK(store.triples() == 1);
}

TEST_CASE("a reader sees a graph whole before or after each PUT, never half replaced") {
  GraphServer store;
  auto graphOf = [](int size) {
    std::string text;
    for (int i = 0; i < size; ++i) text += "<http://e/s" + std::to_string(i) + "> <http://e/p> \"" + std::to_string(size) + "\" .\n";
    return text;
  };
  const std::string small = graphOf(3), large = graphOf(50);
  REQUIRE(store.put(kGraphG, small, "application/n-triples")->status == 201);
  std::atomic<bool> writing{true};
  std::thread writer([&] {
    for (int i = 0; i < 20; ++i) store.put(kGraphG, i % 2 ? small : large, "application/n-triples");
    writing = false;
  });
  int reads = 0;
  while (writing) {
    auto res = store.server->client().Get(kGraphG.c_str(), {{"Accept", "application/n-triples"}});
    REQUIRE(res);
    REQUIRE(res->status == 200);
    const auto lines = std::count(res->body.begin(), res->body.end(), '\n');
    CHECK((lines == 3 || lines == 50));
    CHECK(res->body.find(lines == 3 ? "\"50\"" : "\"3\"") == std::string::npos);
    ++reads;
  }
  writer.join();
  CHECK(reads > 0);
}
