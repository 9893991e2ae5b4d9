// `gsparql serve` as a process: stopping on SIGTERM, and Apache Jena's
// rsparql and rupdate as clients written by someone else.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <mutex>
#include <random>
#include <set>
#include <regex>
#include <sstream>
#include <thread>

#include "server_fixture.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

// `gsparql serve` on SF1 at a free port, stopped (SIGTERM) at the end.
class ServeProcess {
 public:
  explicit ServeProcess(std::vector<std::string> extra = {}, const std::filesystem::path& db = sf1Dir()) {
    std::vector<std::string> args{"serve", "--db", db.string(), "--port", "0"};
    args.insert(args.end(), extra.begin(), extra.end());
    pid_ = spawnCli(args, output_);
    const std::regex listening("listening on http://127\\.0\\.0\\.1:([0-9]+)/");
    for (int attempt = 0; attempt < 600 && port_ == 0; ++attempt) {  // the database opens first
      std::smatch match;
      const std::string text = std::filesystem::exists(output_) ? readText(output_) : "";
      if (std::regex_search(text, match, listening)) port_ = std::stoi(match[1]);
      else std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    REQUIRE(port_ != 0);
  }
  ~ServeProcess() {
    if (pid_ > 0) {
      terminate();
      wait();
    }
  }

  int port() const { return port_; }
  void terminate() const { ::kill(pid_, SIGTERM); }
  // Whether the process has ended within `patience` (it stays to be waited for).
  bool endsWithin(std::chrono::milliseconds patience) const {
    const auto deadline = std::chrono::steady_clock::now() + patience;
    do {
      siginfo_t info{};
      if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid_) {
        return true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    } while (std::chrono::steady_clock::now() < deadline);
    return false;
  }
  void killHard() const { ::kill(pid_, SIGKILL); }
  ProcessResult wait() {
    ProcessResult result = waitFor(pid_, output_);
    pid_ = -1;
    return result;
  }
  std::string endpoint() const { return "http://127.0.0.1:" + std::to_string(port_) + "/sparql"; }


 private:
  TempDir dir_;
  std::filesystem::path output_ = dir_ / "output";
  int pid_ = -1;
  int port_ = 0;
};

// A search from every vertex that reaches every other (any predicate, either
// way): runs for minutes on SF1, holding more memory as it goes, until it is
// stopped. (A product of patterns is no runaway: its size is known, so one
// past the memory budget fails at once, and an unfiltered one is counted
// from the patterns' counts.)
const char* kRunaway = "SELECT (COUNT(*) AS ?n) WHERE { ?x (!<http://x/none>|^!<http://x/none>)* ?y }";

// Long enough for the server to start the queries just sent.
constexpr auto kSettle = std::chrono::milliseconds(scaledCases(5) == 5 ? 500 : 1500);

// Sends a query on a connection of its own and returns the socket, for a
// client that leaves (closes it) or stops reading.
int sendQuery(int port, const std::string& query) {
  const int sock = connectTo(port);
  REQUIRE(sock >= 0);
  const std::string request =
      "GET /sparql?query=" + httplib::detail::encode_query_param(query) + " HTTP/1.1\r\nHost: x\r\n\r\n";
  REQUIRE(::write(sock, request.data(), request.size()) == static_cast<ssize_t>(request.size()));
  return sock;
}

httplib::Result getQuery(int port, const std::string& query, const std::string& extra = "") {
  httplib::Client client("127.0.0.1", port);
  client.set_read_timeout(60);
  return client.Get(("/sparql?query=" + httplib::detail::encode_query_param(query) + extra).c_str());
}

std::vector<std::string> sortedLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

}  // namespace

TEST_CASE("a port in use is an error at start-up, naming the address") {
  ServeProcess first;
  const std::string port = std::to_string(first.port());
  const ProcessResult second = runCli({"serve", "--db", sf1Dir().string(), "--port", port});
  CHECK(second.exitCode == 1);
  CHECK(second.output.find("cannot listen on 127.0.0.1:" + port + ": address already in use") != std::string::npos);
  CHECK(getQuery(first.port(), "ASK {}")->status == 200);  // the first one serves on
}

TEST_CASE("serve says at start whether it accepts updates, its time limit and SERVICE endpoints, and bad values of its options are refused") {
  const auto startLine = [](std::vector<std::string> options) {
    ServeProcess serve(std::move(options));
    serve.terminate();
    const std::string output = serve.wait().output;
    const size_t line = output.find("gsparql serve: updates");
    return line == std::string::npos ? output : output.substr(line, output.find('\n', line) - line);
  };
  CHECK(startLine({}) == "gsparql serve: updates refused (--update accepts them); query time limit 300 s (--timeout); "
                         "SERVICE refused (--service-allow allows an endpoint)");
  CHECK(startLine({"--update", "--timeout", "none"}) == "gsparql serve: updates accepted; query time limit none (--timeout); SERVICE refused (--service-allow allows an endpoint)");
  CHECK(startLine({"--token", "t", "--timeout", "0"}) ==
        "gsparql serve: updates accepted with the bearer token; query time limit none (--timeout); SERVICE refused "
        "(--service-allow allows an endpoint)");
  CHECK(startLine({"--read-only", "--timeout", "2.5", "--service-allow", "http://a/sparql"}) ==
        "gsparql serve: updates refused (--read-only); query time limit 2.5 s (--timeout); SERVICE 1 endpoint(s) "
        "(--service-allow)");
  const std::vector<std::pair<std::vector<std::string>, std::string>> refused{
      {{"--update", "--read-only"}, "--update and --read-only contradict each other"},
      {{"--token", ""}, "--token: the token is empty"},
      {{"--service-allow", "file:///etc"}, "--service-allow 'file:///etc': expected an http or https URL"},
      {{"--cors-origin", "evil.example"}, "--cors-origin 'evil.example': expected an origin"},
      {{"--cors-origin", "http://friend.example/"}, "--cors-origin 'http://friend.example/': expected an origin"},
      {{"--cors-origin", "ftp://friend.example"}, "--cors-origin 'ftp://friend.example': expected an origin"},
      {{"--timeout", "-1"}, "timeout '-1': expected a number of seconds"},
      {{"--timeout", "never"}, "timeout 'never': expected a number of seconds"},
      {{"--connection-threads", "0"}, "--connection-threads '0': expected a whole number from 1 to 256"},
      {{"--connection-threads", "many"}, "--connection-threads 'many': expected a whole number from 1 to 256"}};
  for (const auto& [options, message] : refused) {
    CAPTURE(message);
    std::vector<std::string> args{"serve", "--db", sf1Dir().string(), "--port", "0"};
    args.insert(args.end(), options.begin(), options.end());
    const ProcessResult result = runCli(args);
    CHECK(result.exitCode == 2);
    CHECK(result.output.find(message) != std::string::npos);
  }
}

TEST_CASE("SIGTERM: a result in flight is sent whole, then the server exits 0") {
  ServeProcess serve({"--threads", "2"});
  httplib::Client client("127.0.0.1", serve.port());
  client.set_read_timeout(300);
  const std::string query = "SELECT * WHERE { ?a ?p ?b . ?b ?q ?c } LIMIT 300000";
  bool signalled = false;
  std::string body;
  // SIGTERM once the first bytes are here: the request is surely in flight.
  auto res = client.Get(("/sparql?query=" + httplib::detail::encode_query_param(query)).c_str(),
                        {{"Accept", "text/tab-separated-values"}}, [&](const char* data, size_t length) {
                          body.append(data, length);
                          if (!signalled) serve.terminate();
                          signalled = true;
                          return true;
                        });
  REQUIRE(res);
  CHECK(res->status == 200);
  CHECK(sortedTsvRows(body).size() == 300000);
  const ProcessResult exit = serve.wait();
  CHECK(exit.exitCode == 0);
  CHECK(exit.output.find("gsparql serve: stopped") != std::string::npos);
}

TEST_CASE("Apache Jena's rsparql gets the rows that gsparql query gives, by POST and by GET") {
  if (shell("command -v java && test -f /usr/share/java/jena-arq.jar").exitCode != 0) {
    MESSAGE("java or libapache-jena-java is not installed: rsparql not run");
    return;
  }
  ServeProcess serve;
  TempDir dir;
  const std::string construct =
      "CONSTRUCT { ?v0 <http://e/likes> ?v2 } WHERE { ?v0 <http://db.uwaterloo.ca/~galuc/wsdbm/likes> ?v2 } LIMIT 200";
  const struct {
    std::string query, jenaResults, cliFormat;
  } cases[] = {
      {watdivQuery("C3_01"), "TSV", "tsv"},
      {watdivQuery("F5_02"), "TSV", "tsv"},
      {watdivQuery("L3_10"), "TSV", "tsv"},
      {watdivQuery("S1_08"), "TSV", "tsv"},
      {construct, "NT", "nt"},
  };
  // By POST, and by GET as rsparql sends short queries: '?' unencoded in the URL.
  for (const std::string method : {" --post", ""}) {
    for (const auto& c : cases) {
      CAPTURE(method);
      CAPTURE(c.query);
      writeFile(dir / "query.rq", c.query);
      const ProcessResult jena = shell(std::string(GSPARQL_JENA_REMOTE) + " rsparql --service " + serve.endpoint() +
                                        " --query " + (dir / "query.rq").string() + method +
                                        " --results=" + c.jenaResults + " 2>&1");
      REQUIRE(jena.exitCode == 0);
      const ProcessResult cli = runCli({"query", "--db", sf1Dir().string(), "--format", c.cliFormat, "-f",
                                        (dir / "query.rq").string()});
      REQUIRE(cli.exitCode == 0);
      CHECK(sortedLines(jena.output).size() > 1);
      CHECK(sortedLines(jena.output) == sortedLines(cli.output));
    }
  }
}

TEST_CASE("Apache Jena's rupdate changes what rsparql and gsparql query then read") {
  if (shell("command -v java && test -f /usr/share/java/jena-arq.jar").exitCode != 0) {
    MESSAGE("java or libapache-jena-java is not installed: rupdate not run");
    return;
  }
  TempDir dir;
  writeFile(dir / "data.nt", "<http://e/a> <http://e/knows> <http://e/b> .\n<http://e/b> <http://e/knows> <http://e/c> .\n");
  Database::load(dir / "db", {(dir / "data.nt").string()});
  ServeProcess serve({"--update"}, dir / "db");
  writeFile(dir / "update.ru",
            "PREFIX e: <http://e/>\n"
            "INSERT DATA { e:c e:knows e:a } ;\n"
            "PREFIX e: <http://e/>\n"
            "DELETE DATA { e:a e:knows e:b }\n");
  const auto update = shell(std::string(GSPARQL_JENA_REMOTE) + " rupdate --service " + serve.endpoint() +
                            " --update " + (dir / "update.ru").string() + " 2>&1");
  INFO(update.output);
  CHECK(update.exitCode == 0);
  writeFile(dir / "query.rq", "SELECT ?s ?o WHERE { ?s <http://e/knows> ?o }");
  const auto jena = shell(std::string(GSPARQL_JENA_REMOTE) + " rsparql --service " + serve.endpoint() + " --query " +
                          (dir / "query.rq").string() + " --post --results=TSV 2>&1");
  INFO(jena.output);
  REQUIRE(jena.exitCode == 0);
  const ProcessResult cli =
      runCli({"query", "--db", (dir / "db").string(), "--format", "tsv", "-f", (dir / "query.rq").string()});
  REQUIRE(cli.exitCode == 0);
  CHECK(sortedLines(cli.output) == sortedLines(jena.output));
  CHECK(sortedLines(cli.output) == std::vector<std::string>{"<http://e/b>\t<http://e/c>", "<http://e/c>\t<http://e/a>",
                                                            "?s\t?o"});
}

TEST_CASE("kill -9 in streams of updates from 4 clients: every acknowledged update is there after restart, none half applied") {
  TempDir dir;
  writeFile(dir / "data.nt", "<http://e/a> <http://e/p> <http://e/b> .\n");
  Database::load(dir / "db", {(dir / "data.nt").string()});
  std::mt19937 random(7);
  std::mutex acknowledgedMutex;
  std::set<int> acknowledged;
  std::atomic<int> sent{0};
  for (int round = 0; round < scaledCases(50); ++round) {
    ServeProcess serve({"--update"}, dir / "db");
    std::atomic<bool> stop{false};
    // Concurrent updates are committed in batches (server/update_committer.h).
    std::vector<std::thread> clients;
    for (int c = 0; c < 4; ++c) {
      clients.emplace_back([&] {
        httplib::Client http("127.0.0.1", serve.port());
        while (!stop) {
          // Two triples an update: after the kill both are there or neither.
          const int n = sent++;
          const std::string update = "INSERT DATA { <http://e/u" + std::to_string(n) + "> <http://e/first> " +
                                     std::to_string(n) + " ; <http://e/second> " + std::to_string(n) + " }";
          auto res = http.Post("/sparql", update, "application/sparql-update");
          if (!res) break;  // killed
          std::lock_guard lock(acknowledgedMutex);
          if (res->status == 200) acknowledged.insert(n);
        }
      });
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(std::uniform_int_distribution<int>(50, 700)(random)));
    serve.killHard();
    stop = true;
    for (std::thread& client : clients) client.join();
    serve.wait();
  }
  Database db(dir / "db");
  db.verify();
  const auto count = [&](const std::string& pattern) {
    return countOf(db.query("SELECT (COUNT(*) AS ?n) { " + pattern + " }"));
  };
  for (int n : acknowledged) {
    CAPTURE(n);
    CHECK(count("<http://e/u" + std::to_string(n) + "> <http://e/first> ?x ; <http://e/second> ?y") == 1);
  }
  // None half applied: as many subjects with the first triple as with both.
  CHECK(count("?s <http://e/first> ?x") == count("?s <http://e/first> ?x ; <http://e/second> ?y"));
  CHECK(acknowledged.size() > 0);
  MESSAGE(acknowledged.size() << " updates acknowledged of " << sent.load() << " sent, over " << scaledCases(50) << " kills");
}

namespace {

// Node and Debian's chromium, for the tests that open a page in a real browser.
bool browserAvailable() {
  if (shell("command -v node && test -x /usr/bin/chromium").exitCode == 0) return true;
  MESSAGE("node or Debian's chromium is not installed: no page was opened");
  return false;
}

// A database at dir/db with one triple, e:a e:knows e:b.
void loadOneTriple(const TempDir& dir) {
  writeFile(dir / "data.nt", "<http://e/a> <http://e/knows> <http://e/b> .\n");
  Database::load(dir / "db", {(dir / "data.nt").string()});
}

}  // namespace

TEST_CASE("the query page in a real browser: a typed query's rows, paged, and a syntax error's position") {
  if (!browserAvailable()) return;
  ServeProcess serve({"--web", GSPARQL_WEB_DIR});
  const std::string query =
      "SELECT ?s ?o WHERE { ?s <http://db.uwaterloo.ca/~galuc/wsdbm/likes> ?o } ORDER BY ?s ?o LIMIT 120";
  const std::string bad = "SELECT ?s WHERE { ?s ?p }";
  const ProcessResult page = shell("node " + std::string(GSPARQL_QUERY_PAGE_TEST) + " http://127.0.0.1:" +
                                      std::to_string(serve.port()) + "/ '" + query + "' '" + bad + "' 2>&1");
  const std::string& output = page.output;
  INFO(output);
  REQUIRE(page.exitCode == 0);
  const auto rows = sf1().query(query).rows();
  REQUIRE(rows.size() == 120);
  std::smatch match;
  REQUIRE(std::regex_search(output, match, std::regex("\"rowsShown\":([0-9]+)")));
  const int shown = std::stoi(match[1]);
  CHECK(shown > 0);
  CHECK(shown < 120);  // one page of the table
  CHECK(output.find("120 results") != std::string::npos);
  // The first row of the table is the first row of the ordered result.
  REQUIRE(std::regex_search(output, match, std::regex("\"firstRow\":\"([^\"]*)\"")));
  CHECK(std::string(match[1]).find(*rows[0][0]) != std::string::npos);
  CHECK(std::string(match[1]).find(*rows[0][1]) != std::string::npos);
  // The server's message, with the line and column of the error and the caret.
  CHECK(output.find("1:25: syntax error at '}'") != std::string::npos);
  CHECK(output.find("SELECT ?s WHERE { ?s ?p }\\n                          ^") != std::string::npos);
  // The plan of the first query went with the next result.
  CHECK(output.find("\"planShown\":true") != std::string::npos);
  CHECK(output.find("\"planAfterNextQuery\":\"\"") != std::string::npos);
}

TEST_CASE("the query page sends the bearer token of its token field: an update refused without it, committed with it") {
  if (!browserAvailable()) return;
  TempDir dir;
  loadOneTriple(dir);
  ServeProcess serve({"--web", GSPARQL_WEB_DIR, "--token", "s3cret"}, dir / "db");
  const ProcessResult page =
      shell("node " + std::string(GSPARQL_QUERY_PAGE_TEST) + " http://127.0.0.1:" + std::to_string(serve.port()) +
            "/ 'SELECT * WHERE { ?s ?p ?o }' 'SELECT ?s WHERE { ?s ?p }' s3cret "
            "'INSERT DATA { <http://e/b> <http://e/knows> <http://e/c> }' 2>&1");
  const std::string& output = page.output;
  INFO(output);
  REQUIRE(page.exitCode == 0);
  CHECK(output.find("\"refusedWithoutToken\":true") != std::string::npos);
  CHECK(output.find("\"committedWithToken\":true") != std::string::npos);
  CHECK(sortedDump(dir / "db").size() == 2);
}


TEST_CASE("a page of another origin in a real browser cannot write, by form or by fetch, to a server with --update") {
  if (!browserAvailable()) return;
  TempDir dir;
  loadOneTriple(dir);
  ServeProcess serve({"--update"}, dir / "db");
  const ProcessResult page =
      shell("node " + std::string(GSPARQL_CROSS_ORIGIN_TEST) + " http://127.0.0.1:" + std::to_string(serve.port()) +
            "/ 'INSERT DATA { <http://e/evil> <http://e/was> <http://e/here> }' 2>&1");
  INFO(page.output);
  REQUIRE(page.exitCode == 0);
  CHECK(page.output.find("\"formStatus\":403") != std::string::npos);
  CHECK(page.output.find("is refused: only pages of this server") != std::string::npos);
  // Refused by the server (403) or by the browser for want of CORS approval.
  CHECK((page.output.find("\"fetch\":\"status 403\"") != std::string::npos ||
         page.output.find("\"fetch\":\"failed:") != std::string::npos));
  CHECK(sortedDump(dir / "db").size() == 1);
}

TEST_CASE("two runaway queries whose clients left free their workers: another query is answered within a second") {
  ServeProcess serve({"--threads", "2", "--queue", "0"});
  const auto isBusy = [](const httplib::Result& r) { return r && r->status == 503 && r->body.find("busy") != std::string::npos; };
  // Until `deadline`, a query that finds the server busy (no queue) is sent again.
  const auto answered = [&](const std::string& query, const std::string& extra, auto deadline) {
    httplib::Result res = getQuery(serve.port(), query, extra);
    for (; isBusy(res) && std::chrono::steady_clock::now() < deadline; res = getQuery(serve.port(), query, extra)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return res;
  };
  const int first = sendQuery(serve.port(), kRunaway);
  const int second = sendQuery(serve.port(), kRunaway);
  // Both have a worker before anything else comes (a query in between
  // could take the second's worker for a moment, and the second be refused).
  std::this_thread::sleep_for(kSettle);
  REQUIRE(isBusy(getQuery(serve.port(), "ASK {}")));
  ::close(first);
  ::close(second);
  const auto left = std::chrono::steady_clock::now();
  auto answer = answered("ASK { ?s ?p ?o }", "", left + std::chrono::seconds(5));
  REQUIRE(answer);
  CHECK(answer->status == 200);
  CHECK(std::chrono::steady_clock::now() - left < std::chrono::seconds(1));
  // Both workers are free: two queries at once each run to their timeout
  // rather than find the server busy.
  std::string bodies[2];
  const auto run = [&](std::string& body) {
    if (auto res = answered(kRunaway, "&timeout=0.5", left + std::chrono::seconds(1))) body = res->body;
  };
  std::thread other(run, std::ref(bodies[1]));
  run(bodies[0]);
  other.join();
  for (const std::string& body : bodies) CHECK(body.find("timed out after 0.5 s") != std::string::npos);
}

TEST_CASE("a second SIGTERM ends the server within a second, even with a worker that cannot stop") {
  ServeProcess serve({"--threads", "2"});
  // One query runs on; the other's client reads nothing of its long result,
  // so its worker waits for room to write and never sees the cancel.
  const int running = sendQuery(serve.port(), kRunaway);
  const int stalled = sendQuery(serve.port(), "SELECT * WHERE { ?a ?p ?b . ?b ?q ?c }");
  std::this_thread::sleep_for(kSettle);
  serve.terminate();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK_FALSE(serve.endsWithin(std::chrono::milliseconds(0)));  // the first signal waits for both
  serve.terminate();
  const bool ended = serve.endsWithin(std::chrono::seconds(1));
  CHECK(ended);
  if (!ended) serve.killHard();
  const ProcessResult exit = serve.wait();
  CHECK(exit.output.find("cancelling the queries in flight") != std::string::npos);
  // The stalled worker kept it from ending by itself.
  CHECK(exit.output.find("exiting without them") != std::string::npos);
  CHECK(exit.exitCode == 1);
  ::close(running);
  ::close(stalled);
}
