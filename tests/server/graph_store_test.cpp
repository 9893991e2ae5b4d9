// The Graph Store HTTP Protocol through its plain interface (graph_store.h),
// on a database of its own, without a server.
#include <doctest/doctest.h>

#include <functional>

#include "gsparql/database.h"
#include "server/graph_store.h"
#include "server/http_error.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::server;
using namespace gsparql::test;

namespace {

const std::string kTurtle = "@prefix e: <http://e/> .\ne:alice e:knows e:bob , e:carol .\n";
const GraphTarget kGraphG{GraphTarget::Kind::Named, "http://e/g"};
const GraphTarget kDefaultGraph{GraphTarget::Kind::Default, ""};

// An empty database, its reads and commits those of a server that accepts
// updates unless `writable` is false.
struct Store {
  TempDir dir;
  std::filesystem::path db = dir / "db";
  bool writable = true;
  GraphStoreAccess access{[this] { return std::make_shared<const Database>(db); },
                          [this] {
                            if (!writable) throw HttpError(403, "updates are refused");
                          },
                          [this](const std::string& update) { Database::update(db, update); },
                          {}};

  Store() { Database::load(db, {}); }

  GraphStoreResponse send(const std::string& method, const GraphTarget& target, const std::string& body = "",
                          const std::string& contentType = "text/turtle", const std::string& accept = "") const {
    return answerGraphStore({method, target, contentType, accept, body, "http://localhost/data", {}}, access);
  }

  uint64_t triples() const { return Database(db).statistics().triples; }
};

// The status of the HttpError that `request` throws; 0 when it throws none.
int refusalOf(const std::function<void()>& request) {
  try {
    request();
  } catch (const HttpError& e) {
    return e.status();
  }
  return 0;
}

std::string messageOf(const std::function<void()>& request) {
  try {
    request();
  } catch (const HttpError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("PUT makes a named graph (201), GET gives it in Turtle or N-Triples, PUT again replaces it (204)") {
  Store store;
  const GraphStoreResponse put = store.send("PUT", kGraphG, kTurtle);
  CHECK(put.status == 201);
  const GraphStoreResponse turtle = store.send("GET", kGraphG, "", "", "text/turtle");
  CHECK(turtle.status == 200);
  CHECK(turtle.contentType == "text/turtle; charset=utf-8");
  CHECK(turtle.body.find("<http://e/carol>") != std::string::npos);
  const GraphStoreResponse ntriples = store.send("GET", kGraphG, "", "", "application/n-triples");
  CHECK(ntriples.contentType == "application/n-triples; charset=utf-8");
  CHECK(ntriples.body.find("<http://e/alice> <http://e/knows> <http://e/bob> .") != std::string::npos);
  const GraphStoreResponse again = store.send("PUT", kGraphG, "<http://e/dave> <http://e/knows> <http://e/erin> .",
                                              "application/n-triples");
  CHECK(again.status == 204);
  CHECK(store.triples() == 1);
  CHECK(store.send("GET", kGraphG).body.find("carol") == std::string::npos);
  CHECK(store.send("HEAD", kGraphG).body.empty());
}

TEST_CASE("POST adds to a graph, and POST to the endpoint makes a new graph named in Location") {
  Store store;
  CHECK(store.send("POST", kDefaultGraph, kTurtle).status == 204);  // the default graph always exists
  CHECK(store.send("POST", kGraphG, kTurtle).status == 201);
  CHECK(store.send("POST", kGraphG, "<http://e/alice> <http://e/knows> <http://e/dave> .").status == 204);
  CHECK(store.triples() == 5);
  const GraphStoreResponse made = store.send("POST", {GraphTarget::Kind::New, ""}, kTurtle);
  CHECK(made.status == 201);
  REQUIRE(made.headers.size() == 1);
  CHECK(made.headers[0].first == "Location");
  const std::string location = made.headers[0].second;
  CHECK(location.starts_with("http://localhost/data/"));
  CHECK(store.send("GET", {GraphTarget::Kind::Named, location}).body.find("carol") != std::string::npos);
}

TEST_CASE("DELETE drops a graph, and GET, HEAD and DELETE of a graph without triples are 404") {
  Store store;
  store.send("PUT", kGraphG, kTurtle);
  store.send("PUT", kDefaultGraph, "<http://e/a> <http://e/p> <http://e/b> .");
  CHECK(store.send("DELETE", kGraphG).status == 204);
  CHECK(store.triples() == 1);
  for (const char* method : {"GET", "HEAD", "DELETE"}) {
    CAPTURE(method);
    CHECK(refusalOf([&] { store.send(method, kGraphG); }) == 404);
  }
  CHECK(store.send("PUT", kGraphG, "").status == 204);  // an empty graph is none
  CHECK(refusalOf([&] { store.send("GET", kGraphG); }) == 404);
  CHECK(store.send("DELETE", kDefaultGraph).status == 204);
  CHECK(store.send("GET", kDefaultGraph).status == 200);
  CHECK(store.triples() == 0);
}

TEST_CASE("a body that does not parse is 400 with its line:column and changes nothing, another format 415") {
  Store store;
  store.send("PUT", kGraphG, kTurtle);
  const auto bad = [&] { store.send("PUT", kGraphG, "@prefix e: <http://e/> .\ne:a e:b .\n"); };
  CHECK(refusalOf(bad) == 400);
  CHECK(messageOf(bad).find("the request body:2:") != std::string::npos);
  CHECK(refusalOf([&] { store.send("POST", kGraphG, "{\"a\": 1}", "text/n3"); }) == 415);
  const auto quad = [&] { store.send("POST", kGraphG, "<http://e/a> <http://e/p> <http://e/b> <http://e/h> .", "application/n-quads"); };
  CHECK(refusalOf(quad) == 400);
  CHECK(store.triples() == 2);
  CHECK(store.send("POST", kGraphG, "<http://e/a> <http://e/p> <http://e/b> .", "Application/N-Quads").status == 204);
  CHECK(store.send("POST", kGraphG, "{ <http://e/a> <http://e/p> <http://e/c> }", "application/trig").status == 204);
  CHECK(store.triples() == 4);
}

TEST_CASE("relative IRIs in a body resolve against the graph's name, or the request's URL") {
  Store store;
  store.send("PUT", kGraphG, "<s> <p> <o> .", "text/turtle");
  CHECK(store.send("GET", kGraphG, "", "", "application/n-triples").body == "<http://e/s> <http://e/p> <http://e/o> .\n");
  store.send("PUT", kDefaultGraph, "<s> <p> <o> .", "text/turtle");
  CHECK(store.send("GET", kDefaultGraph, "", "", "application/n-triples").body.find("<http://localhost/s>") !=
        std::string::npos);
}

TEST_CASE("writes are refused as updates are, reads are not, and other methods are 405") {
  Store store;
  store.send("PUT", kGraphG, kTurtle);
  store.writable = false;
  for (const char* method : {"PUT", "POST", "DELETE"}) {
    CAPTURE(method);
    CHECK(refusalOf([&] { store.send(method, kGraphG, kTurtle); }) == 403);
  }
  CHECK(store.send("GET", kGraphG).status == 200);
  CHECK(refusalOf([&] { store.send("PATCH", kGraphG); }) == 405);
  CHECK(refusalOf([&] { store.send("GET", kGraphG, "", "", "application/sparql-results+json"); }) == 406);
}

TEST_CASE("the request names its graph by graph=, default, a URL under /data/, or a POST to /data") {
  using Params = std::multimap<std::string, std::string>;
  auto target = [](const std::string& method, const std::string& path, Params params) {
    return graphStoreRequestOf({method, "text/turtle", "", std::move(params)}, path, "h:1", "").target;
  };
  const GraphTarget indirect = target("GET", "/sparql", {{"graph", "http://e/g"}});
  CHECK((indirect.kind == GraphTarget::Kind::Named && indirect.iri == "http://e/g"));
  CHECK(target("PUT", "/data", {{"default", ""}}).kind == GraphTarget::Kind::Default);
  const GraphTarget direct = target("GET", "/data/people/1.ttl", {});
  CHECK((direct.kind == GraphTarget::Kind::Named && direct.iri == "http://h:1/data/people/1.ttl"));
  CHECK(target("POST", "/data", {}).kind == GraphTarget::Kind::New);
  CHECK(refusalOf([&] { target("GET", "/data", {}); }) == 400);
  CHECK(refusalOf([&] { target("PUT", "/data", {{"graph", "http://e/g"}, {"default", ""}}); }) == 400);
  CHECK(refusalOf([&] { target("PUT", "/data", {{"graph", "http://e/g"}, {"graph", "http://e/h"}}); }) == 400);
  CHECK(refusalOf([&] { target("PUT", "/data", {{"graph", "relative"}}); }) == 400);
  CHECK(refusalOf([&] { target("PUT", "/data", {{"graph", "http://e/g> ; DROP ALL ; <http://e/h"}}); }) == 400);
  CHECK(namesGraphOnly({{"graph", "http://e/g"}}));
  CHECK(namesGraphOnly({{"default", ""}}));
  CHECK_FALSE(namesGraphOnly({{"query", "ASK {}"}, {"default", ""}}));
  CHECK_FALSE(namesGraphOnly({{"default-graph-uri", "http://e/g"}}));
}

TEST_CASE("an RDF/XML body is read (relative IRIs against the graph's name), bad RDF/XML is 400 with its position, "
          "and GET answers in RDF/XML, N-Quads and TriG") {
  Store store;
  const std::string header =
      "<?xml version=\"1.0\"?>\n<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" xmlns:e=\"http://e/\">\n";
  const GraphStoreResponse put = store.send(
      "PUT", kGraphG, header + "  <rdf:Description rdf:about=\"s\"><e:p rdf:resource=\"o\"/></rdf:Description>\n</rdf:RDF>\n",
      "application/rdf+xml");
  CHECK(put.status == 201);
  CHECK(store.send("GET", kGraphG, "", "", "application/n-triples").body == "<http://e/s> <http://e/p> <http://e/o> .\n");
  const auto bad = [&] { store.send("PUT", kGraphG, header + "  <rdf:Description>\n</rdf:RDF>\n", "application/rdf+xml"); };
  CHECK(refusalOf(bad) == 400);
  CHECK(messageOf(bad).find("the request body:4:") != std::string::npos);
  CHECK(store.triples() == 1);
  const GraphStoreResponse xml = store.send("GET", kGraphG, "", "", "application/rdf+xml");
  CHECK(xml.contentType == "application/rdf+xml; charset=utf-8");
  CHECK(xml.body.find("<rdf:Description rdf:about=\"http://e/s\">") != std::string::npos);
  CHECK(xml.body.find("rdf:resource=\"http://e/o\"") != std::string::npos);
  CHECK(store.send("GET", kGraphG, "", "", "application/n-quads").contentType == "application/n-quads; charset=utf-8");
  CHECK(store.send("GET", kGraphG, "", "", "application/trig").body.find("<http://e/s> <http://e/p> <http://e/o>") !=
        std::string::npos);
  // The 415 names RDF/XML among what the Graph Store reads.
  CHECK(messageOf([&] { store.send("POST", kGraphG, "{}", "text/n3"); }).find("RDF/XML (application/rdf+xml)") !=
        std::string::npos);
}

TEST_CASE("a JSON-LD body is read (relative IRIs against the graph's name), a remote context is 400, GET answers in JSON-LD") {
  Store store;
  const std::string body = "{\"@context\": {\"p\": {\"@id\": \"http://e/p\", \"@type\": \"@id\"}}, \"@id\": \"s\", \"p\": \"o\"}";
  CHECK(store.send("PUT", kGraphG, body, "application/ld+json").status == 201);
  CHECK(store.send("GET", kGraphG, "", "", "application/n-triples").body == "<http://e/s> <http://e/p> <http://e/o> .\n");
  const auto remote = [&] { store.send("POST", kGraphG, "{\"@context\": \"http://127.0.0.1:9/c\", \"@id\": \"s\"}", "application/ld+json"); };
  CHECK(refusalOf(remote) == 400);
  CHECK(messageOf(remote).find("loading remote context failed") != std::string::npos);
  const GraphStoreResponse json = store.send("GET", kGraphG, "", "", "application/ld+json");
  CHECK(json.contentType.starts_with("application/ld+json"));
  CHECK(json.body.find("\"@id\": \"http://e/s\"") != std::string::npos);
}
