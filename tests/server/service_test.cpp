// SERVICE (SPARQL 1.1 Federated Query) against endpoints in this process: a
// gsparql server holding the remote data, and small cpp-httplib servers
// that answer badly (an error, garbage, too much, nothing at all).
#include <doctest/doctest.h>
#include <httplib.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "gsparql/database.h"
#include "gsparql/error.h"
#include "support/test_support.h"
#include "test_server.h"

namespace gsparql::test {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kPeople = 450;  // more than two requests' worth of outer rows (ServiceJoin::kRowsPerRequest)

// The remote data: people with names, some with ages and friends (blank nodes).
std::string remoteTriples() {
  std::string ttl;
  for (int i = 0; i < kPeople; ++i) {
    const std::string p = "<http://r/p" + std::to_string(i) + ">";
    ttl += p + " <http://r/name> \"Name " + std::to_string(i) + "\"@en .\n";
    if (i % 3 == 0) ttl += p + " <http://r/age> \"" + std::to_string(20 + i % 50) + "\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n";
    if (i % 7 == 0) ttl += p + " <http://r/knows> <http://r/p" + std::to_string((i + 1) % kPeople) + "> .\n";
  }
  ttl += "<http://r/p0> <http://r/friend> _:f1 .\n_:f1 <http://r/name> \"a friend\" .\n";
  ttl += "<http://r/p1> <http://r/friend> _:f2 .\n_:f2 <http://r/name> \"another\" .\n";
  return ttl;
}

// The local data: a link to each remote person, and the endpoints to ask.
std::string localTriples(const std::string& sparql, const std::string& query) {
  std::string ttl;
  for (int i = 0; i < kPeople; ++i) {
    ttl += "<http://l/x" + std::to_string(i) + "> <http://l/same> <http://r/p" + std::to_string(i) + "> .\n";
  }
  ttl += "<http://l/a> <http://l/endpoint> <" + sparql + "> .\n<http://l/a> <http://l/who> <http://r/p3> .\n";
  ttl += "<http://l/b> <http://l/endpoint> <" + query + "> .\n<http://l/b> <http://l/who> <http://r/p6> .\n";
  ttl += "<http://l/c> <http://l/who> <http://r/p9> .\n";  // no endpoint: ?e unbound
  return ttl;
}

std::filesystem::path databaseOf(const TempDir& tmp, const std::string& name, const std::string& triples) {
  writeFile(tmp / (name + ".nt"), triples);
  Database::load(tmp / name, {(tmp / (name + ".nt")).string()});
  return tmp / name;
}

struct Federation {
  TempDir tmp;
  std::filesystem::path remoteDir = databaseOf(tmp, "remote", remoteTriples());
  TestServer remote{server::ServerOptions{}, remoteDir};
  std::string endpoint = "http://127.0.0.1:" + std::to_string(remote.port()) + "/sparql";
  Database local{databaseOf(tmp, "local", localTriples(endpoint, "http://127.0.0.1:" + std::to_string(remote.port()) + "/query"))};

  std::vector<std::string> rows(const std::string& where, const QueryOptions& options = {}) const {
    return sortedLines(local.query("SELECT * WHERE { " + where + " }", options));
  }
  std::string service(const std::string& pattern) const { return "SERVICE <" + endpoint + "> { " + pattern + " }"; }
};

// A server of canned answers on a free port, for the ways an endpoint fails.
class CannedEndpoint {
 public:
  explicit CannedEndpoint(httplib::Server::Handler handler) {
    server_.Post("/sparql", std::move(handler));
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~CannedEndpoint() {
    server_.stop();
    thread_.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/sparql"; }

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
};

std::string errorOf(const Database& db, const std::string& query, const QueryOptions& options = {}) {
  try {
    db.query(query, options).rowCount();
  } catch (const QueryError& e) {
    return e.what();
  }
  return "no error";
}

TEST_CASE("SERVICE answers as the pattern evaluated where its data is") {
  Federation f;
  const Database remote(f.remoteDir);
  for (const std::string pattern :
       {"?p <http://r/name> ?n FILTER(isIRI(?p))",  // blank nodes are compared in their own test
        "?p <http://r/name> ?n OPTIONAL { ?p <http://r/age> ?a } FILTER(isIRI(?p))",
        "{ ?p <http://r/age> ?v } UNION { ?p <http://r/knows> ?v }", "?p <http://r/age> ?a FILTER(?a > 60)",
        "?p <http://r/knows>/<http://r/name> ?n", "?p <http://r/name> ?n MINUS { ?p <http://r/age> ?a } FILTER(isIRI(?p))"}) {
    CAPTURE(pattern);
    const auto expected = sortedLines(remote.query("SELECT * WHERE { " + pattern + " }"));
    CHECK(!expected.empty());
    CHECK(f.rows(f.service(pattern)) == expected);
  }
}

TEST_CASE("SERVICE joins its answers with the outer solutions, sent a slice of rows at a time") {
  Federation f;
  const std::string query = "SELECT * WHERE { ?x <http://l/same> ?p " + f.service("?p <http://r/name> ?n") + " }";
  QueryResult result = f.local.query(query);
  CHECK(result.rowCount() == kPeople);
  CHECK(result.explain().find("Service <" + f.endpoint + ">, on ?p, 3 request(s), 450 remote row(s)") !=
        std::string::npos);
  // An outer variable the pattern binds only in an OPTIONAL, and one it does not bind.
  CHECK(f.rows("?x <http://l/same> ?p " + f.service("?p <http://r/name> ?n OPTIONAL { ?p <http://r/age> ?a }")).size() ==
        kPeople);
  CHECK(f.rows("VALUES ?p { <http://r/p3> <http://nowhere/> } " + f.service("?p <http://r/age> ?a")) ==
        std::vector<std::string>{"<http://r/p3>\t\"23\"^^<http://www.w3.org/2001/XMLSchema#integer>"});
}

TEST_CASE("SERVICE keeps literal datatypes and languages and makes remote blank nodes fresh") {
  Federation f;
  CHECK(f.rows(f.service("<http://r/p3> ?p ?o")) ==
        std::vector<std::string>{"<http://r/age>\t\"23\"^^<http://www.w3.org/2001/XMLSchema#integer>",
                                 "<http://r/name>\t\"Name 3\"@en"});
  const auto friends = f.rows(f.service("?p <http://r/friend> ?f"));
  REQUIRE(friends.size() == 2);
  CHECK(friends[0].find("\t_:") != std::string::npos);
  // Two requests: each answer's blank nodes are new terms.
  const auto twice = f.rows(f.service("<http://r/p0> <http://r/friend> ?f") + " " +
                            f.service("<http://r/p0> <http://r/friend> ?g") + " FILTER(?f = ?g)");
  CHECK(twice.empty());
}

TEST_CASE("SERVICE ?e asks the endpoint each outer solution binds") {
  Federation f;
  const std::string who = "?s <http://l/who> ?p OPTIONAL { ?s <http://l/endpoint> ?e } ";
  CHECK(errorOf(f.local, "SELECT * { " + who + "SERVICE ?e { ?p <http://r/name> ?n } }")
            .find("SERVICE ?e at 1:") != std::string::npos);
  const auto rows = f.rows(who + "SERVICE SILENT ?e { ?p <http://r/name> ?n }");
  REQUIRE(rows.size() == 3);
  CHECK(rows[0] == "<http://l/a>\t<http://r/p3>\t<" + f.endpoint + ">\t\"Name 3\"@en");
  CHECK(rows[1].starts_with("<http://l/b>\t<http://r/p6>\t<http://127.0.0.1:"));
  CHECK(rows[1].ends_with("/query>\t\"Name 6\"@en"));
  CHECK(rows[2] == "<http://l/c>\t<http://r/p9>\t\t");  // unbound ?e under SILENT: the row unchanged
  QueryResult result = f.local.query("SELECT * { ?s <http://l/endpoint> ?e SERVICE ?e { <http://r/p0> <http://r/name> ?n } }");
  CHECK(result.rowCount() == 2);
  CHECK(result.explain().find("Service ?e, no shared variable, 2 request(s)") != std::string::npos);
}

TEST_CASE("SERVICE SILENT yields the empty solution where the endpoint fails, SERVICE an error naming it") {
  Federation f;
  const std::string down = "http://127.0.0.1:1/sparql";  // nothing listens on port 1
  CHECK(f.rows("VALUES ?v { 1 2 } SERVICE SILENT <" + down + "> { ?s ?p ?o }") ==
        std::vector<std::string>{"\"1\"^^<http://www.w3.org/2001/XMLSchema#integer>\t\t\t",
                                 "\"2\"^^<http://www.w3.org/2001/XMLSchema#integer>\t\t\t"});
  const std::string error = errorOf(f.local, "SELECT * { SERVICE <" + down + "> { ?s ?p ?o } }");
  CHECK(error.starts_with("SERVICE <" + down + "> at 1:12 failed: "));
  CHECK(error.find("onnect") != std::string::npos);
}

TEST_CASE("an endpoint's bad answers are errors: HTTP 500, garbage, too large, a refused redirect") {
  Federation f;
  CannedEndpoint failing([](const httplib::Request&, httplib::Response& res) {
    res.status = 500;
    res.set_content("the store is on fire", "text/plain");
  });
  CHECK(errorOf(f.local, "SELECT * { SERVICE <" + failing.url() + "> { ?s ?p ?o } }")
            .ends_with("failed: HTTP status 500: the store is on fire"));
  CannedEndpoint garbage([](const httplib::Request&, httplib::Response& res) {
    res.set_content("{\"head\": [", "application/sparql-results+json");
  });
  CHECK(errorOf(f.local, "SELECT * { SERVICE <" + garbage.url() + "> { ?s ?p ?o } }")
            .ends_with("failed: SPARQL JSON results: not JSON"));
  CannedEndpoint xmlGarbage([](const httplib::Request&, httplib::Response& res) {
    res.set_content("<sparql><results><result>", "application/sparql-results+xml");
  });
  CHECK(errorOf(f.local, "SELECT * { SERVICE <" + xmlGarbage.url() + "> { ?s ?p ?o } }")
            .ends_with("failed: SPARQL XML results: not well-formed XML"));
  CannedEndpoint huge([](const httplib::Request&, httplib::Response& res) {
    res.set_content("{\"head\":{\"vars\":[]},\"results\":{\"bindings\":[" + std::string(100000, ' ') + "]}}",
                    "application/sparql-results+json");
  });
  QueryOptions small;
  small.service.maxResponseBytes = 10000;
  CHECK(errorOf(f.local, "SELECT * { SERVICE <" + huge.url() + "> { ?s ?p ?o } }", small)
            .ends_with("failed: the answer is larger than 10000 bytes (the limit)"));
  CHECK(f.local.query("SELECT * { SERVICE SILENT <" + huge.url() + "> { ?s ?p ?o } }", small).rowCount() == 1);
  CannedEndpoint redirect([](const httplib::Request&, httplib::Response& res) { res.set_redirect("file:///etc/passwd", 307); });
  CHECK(errorOf(f.local, "SELECT * { SERVICE <" + redirect.url() + "> { ?s ?p ?o } }")
            .find("SERVICE <file:///etc/passwd> is refused: only http and https") != std::string::npos);
  CHECK(errorOf(f.local, "SELECT * { SERVICE <file:///etc/passwd> { ?s ?p ?o } }")
            .find("is refused: only http and https endpoints") != std::string::npos);
}

TEST_CASE("SERVICE reads SPARQL XML results: datatypes, languages, blank nodes, unbound") {
  Federation f;
  CannedEndpoint xml([](const httplib::Request&, httplib::Response& res) {
    res.set_content(R"(<?xml version="1.0"?>
<sparql xmlns="http://www.w3.org/2005/sparql-results#">
  <head><variable name="s"/><variable name="o"/></head>
  <results>
    <result><binding name="s"><uri>http://x/a</uri></binding>
            <binding name="o"><literal xml:lang="fr">chat &amp; chien</literal></binding></result>
    <result><binding name="s"><bnode>b0</bnode></binding>
            <binding name="o"><literal datatype="http://www.w3.org/2001/XMLSchema#decimal">1.50</literal></binding></result>
    <result><binding name="s"><uri>http://x/c</uri></binding></result>
  </results>
</sparql>)", "application/sparql-results+xml; charset=utf-8");
  });
  const auto rows = f.rows("SERVICE <" + xml.url() + "> { ?s ?p ?o }");
  REQUIRE(rows.size() == 3);
  CHECK(rows[0] == "<http://x/a>\t\t\"chat & chien\"@fr");
  CHECK(rows[1] == "<http://x/c>\t\t");
  CHECK(rows[2].starts_with("_:"));
  CHECK(rows[2].ends_with("\t\t\"1.50\"^^<http://www.w3.org/2001/XMLSchema#decimal>"));
}

// An endpoint that takes the request and never answers, until the test ends.
struct SilentEndpoint {
  std::atomic<bool> done{false};
  CannedEndpoint endpoint{[this](const httplib::Request&, httplib::Response& res) {
    while (!done) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    res.status = 503;
  }};
  ~SilentEndpoint() { done = true; }
};

TEST_CASE("an endpoint that never answers: the request's time limit, the query's, or a cancel stops the wait") {
  Federation f;
  SilentEndpoint slow;
  const std::string query = "SELECT * { SERVICE <" + slow.endpoint.url() + "> { ?s ?p ?o } }";
  QueryOptions request;
  request.service.requestTimeout = std::chrono::milliseconds(300);
  auto start = Clock::now();
  CHECK(errorOf(f.local, query, request).ends_with("failed: no answer within 300 ms"));
  CHECK(Clock::now() - start < std::chrono::seconds(3));

  QueryOptions timed;
  timed.timeout = std::chrono::milliseconds(400);
  start = Clock::now();
  CHECK_THROWS_AS(f.local.query(query, timed), QueryTimedOut);
  CHECK(Clock::now() - start < std::chrono::seconds(3));

  std::atomic<bool> cancel{false};
  QueryOptions cancelled;
  cancelled.cancel = &cancel;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    cancel = true;
  });
  start = Clock::now();
  CHECK_THROWS_AS(f.local.query("SELECT * { SERVICE SILENT <" + slow.endpoint.url() + "> { ?s ?p ?o } }", cancelled),
                  QueryCancelled);  // SILENT does not hide the query's own stop
  CHECK(Clock::now() - start < std::chrono::seconds(3));
  canceller.join();
}

TEST_CASE("a server asks only the endpoints --service-allow names, and follows redirects only to them") {
  Federation f;
  const std::string query = "SELECT ?n WHERE { " + f.service("<http://r/p3> <http://r/name> ?n") + " }";
  {
    TestServer closed{server::ServerOptions{}, f.remoteDir};  // the default: SERVICE refused
    auto res = closed.client().Post("/sparql", formBody({{"query", query}}), "application/x-www-form-urlencoded");
    REQUIRE(res);
    CHECK(res->status == 400);
    CHECK(res->body.find("SERVICE <" + f.endpoint + "> is refused: it is not an allowed endpoint") != std::string::npos);
  }
  server::ServerOptions allowing;
  allowing.service.allowed = {f.endpoint};
  TestServer open{allowing, f.remoteDir};
  auto res = open.client().Post("/sparql", formBody({{"query", query}}), "application/x-www-form-urlencoded");
  REQUIRE(res);
  CHECK(res->status == 200);
  CHECK(res->body.find("Name 3") != std::string::npos);
  // A prefix allows what is under it, not a longer name.
  QueryOptions prefix;
  prefix.service = ServiceAccess::none();
  prefix.service.allowed = {"http://127.0.0.1:" + std::to_string(f.remote.port())};
  CHECK(f.local.query(query, prefix).rowCount() == 1);
  prefix.service.allowed = {f.endpoint.substr(0, f.endpoint.size() - 1)};  // ".../sparq"
  CHECK(errorOf(f.local, query, prefix).find("is refused") != std::string::npos);
  CHECK(errorOf(f.local, "SELECT * { SERVICE SILENT <http://127.0.0.1:1/> { ?s ?p ?o } }", prefix)
            .find("is refused") != std::string::npos);  // a refusal is an error, SILENT or not
  CannedEndpoint redirect([&](const httplib::Request&, httplib::Response& r) { r.set_redirect(f.endpoint, 307); });
  prefix.service.allowed = {redirect.url()};
  CHECK(errorOf(f.local, "SELECT * { SERVICE <" + redirect.url() + "> { ?s ?p ?o } }", prefix)
            .find("SERVICE <" + f.endpoint + "> is refused") != std::string::npos);
  prefix.service.allowed.push_back(f.endpoint);
  CHECK(f.local.query("SELECT * { SERVICE <" + redirect.url() + "> { <http://r/p3> <http://r/name> ?n } }", prefix)
            .rowCount() == 1);
}

}  // namespace
}  // namespace gsparql::test
