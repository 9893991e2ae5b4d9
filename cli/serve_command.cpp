// `gsparql serve`: the SPARQL 1.1 Protocol on a database until SIGTERM or
// SIGINT (docs/server.md).
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <string>
#include <thread>

#include "cli/commands.h"
#include "cli/query_options.h"
#include "server/sparql_server.h"
#include "server/write_origins.h"

namespace gsparql::cli {
namespace {

// The query page: installed under the binary's prefix (share/gsparql/web,
// cmake/Install.cmake), else in the source tree the binary was built from.
std::string defaultWebDir() {
  std::error_code error;
  std::filesystem::path binary = std::filesystem::read_symlink("/proc/self/exe", error);
  std::filesystem::path installed = binary.parent_path().parent_path() / "share/gsparql/web";
  if (!error && std::filesystem::exists(installed / "index.html", error)) return installed.string();
  return GSPARQL_WEB_DIR;
}

// The server's default time limit: a runaway query (a cross product) must
// not hold a worker and its memory for ever, and 5 minutes is far above any
// query a person waits for at a page or a client sends interactively, while
// long exports still finish; --timeout 0 lifts it.
constexpr std::chrono::seconds kDefaultTimeout{300};

server::ServerOptions serverOptionsFrom(const Arguments& a) {
  server::ServerOptions options;
  options.query = queryOptionsFrom(a);
  if (!a.value("--timeout")) options.query.timeout = kDefaultTimeout;  // --timeout 0 or none: no limit
  if (auto bind = a.value("--bind")) options.bind = *bind;
  if (auto port = a.value("--port")) options.port = static_cast<int>(parseCount("--port", *port, 0, 65535));
  if (auto threads = a.value("--threads")) options.threads = parseCount("--threads", *threads, 1, 4096);
  if (auto queue = a.value("--queue")) options.queueLength = parseCount("--queue", *queue, 0, 1 << 20);
  if (auto threads = a.value("--connection-threads")) {
    options.connectionThreads = parseCount("--connection-threads", *threads, 1, 256);
  }
  if (auto rows = a.value("--max-result-rows")) options.query.maxRows = parseCount("--max-result-rows", *rows, 1, UINT64_MAX);
  options.updates = a.flag("--update");
  options.readOnly = a.flag("--read-only");
  if (options.updates && options.readOnly) throw UsageError("--update and --read-only contradict each other");
  options.token = a.value("--token").value_or("");
  if (options.token.empty() && a.value("--token")) throw UsageError("--token: the token is empty");
  for (const std::string& origin : a.values("--cors-origin")) {
    if (!server::isOrigin(origin)) {
      throw UsageError("--cors-origin '" + origin + "': expected an origin such as http://example.org:8080 (no path)");
    }
    options.corsOrigins.push_back(origin);
  }
  options.service.any = a.flag("--service-allow-any");
  for (const std::string& endpoint : a.values("--service-allow")) {
    if (!endpoint.starts_with("http://") && !endpoint.starts_with("https://")) {
      throw UsageError("--service-allow '" + endpoint + "': expected an http or https URL");
    }
    options.service.allowed.push_back(endpoint);
  }
  options.accessLog = a.value("--access-log").value_or("");
  options.webDir = a.value("--web").value_or(defaultWebDir());
  return options;
}

// What whoever starts a server must know at once, since all have defaults
// that an option changes: whether it writes, how long a query may run, and
// which endpoints SERVICE may ask.
std::string policyLine(const server::ServerOptions& options) {
  const std::string updates = options.readOnly        ? "refused (--read-only)"
                              : !options.token.empty() ? "accepted with the bearer token"
                              : options.updates        ? "accepted"
                                                       : "refused (--update accepts them)";
  char limit[64] = "none";
  if (options.query.timeout) {
    std::snprintf(limit, sizeof(limit), "%g s", std::chrono::duration<double>(*options.query.timeout).count());
  }
  const std::string service = options.service.any ? "any endpoint (--service-allow-any)"
                              : options.service.allowed.empty()
                                  ? "refused (--service-allow allows an endpoint)"
                                  : std::to_string(options.service.allowed.size()) + " endpoint(s) (--service-allow)";
  return "gsparql serve: updates " + updates + "; query time limit " + limit + " (--timeout); SERVICE " + service +
         "\n";
}

// How long after the second signal the queries have to stop before the
// process ends without them.
constexpr auto kCancelGrace = std::chrono::milliseconds(500);

// Ends the process after `grace`, from a thread of its own, whatever the
// others do then: a worker that never looks at its cancel flag (a step
// that checks for stops too rarely) would otherwise keep it alive, in
// serve() or in the destructor that joins the workers. _Exit runs no
// destructors, so nothing waits for that worker; the database needs none:
// updates and merges are atomic at every moment (docs/storage.md,
// "Updates"; the server's kill -9 test), and the access log is flushed
// line by line.
void exitAfter(std::chrono::milliseconds grace) {
  std::thread([grace] {
    std::this_thread::sleep_for(grace);
    std::fputs("gsparql serve: queries still running after the cancel; exiting without them\n", stderr);
    std::_Exit(1);
  }).detach();
}

// Waits for SIGTERM and SIGINT (blocked in every other thread): the first
// stops the server, which answers the requests in flight; a second cancels
// the queries still running and ends the process within a second.
class SignalWatcher {
 public:
  explicit SignalWatcher(server::SparqlServer& server) : server_(server), thread_([this] { watch(); }) {}
  ~SignalWatcher() {
    done_ = true;
    thread_.join();
  }

  static void blockSignals() {
    sigset_t set = signals();
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
  }

 private:
  static sigset_t signals() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    return set;
  }

  void watch() {
    const sigset_t set = signals();
    const timespec poll{0, 200'000'000};  // to notice done_ when the server stopped by itself
    int received = 0;
    while (!done_) {
      if (sigtimedwait(&set, nullptr, &poll) < 0) continue;
      if (++received == 1) {
        std::fputs("gsparql serve: stopping; answering the requests in flight (signal again to cancel them)\n", stderr);
        server_.stop();
      } else if (received == 2) {
        std::fputs("gsparql serve: cancelling the queries in flight\n", stderr);
        server_.cancelQueries();
        exitAfter(kCancelGrace);
      }
    }
  }

  server::SparqlServer& server_;
  std::atomic<bool> done_{false};
  std::thread thread_;
};

// A connection is a file descriptor: the soft limit (often 1024) would
// leave connections past it waiting in the backlog.
void allowAllFileDescriptors() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == limit.rlim_max) return;
  limit.rlim_cur = limit.rlim_max;
  ::setrlimit(RLIMIT_NOFILE, &limit);
}

int runServe(const Arguments& a) {
  SignalWatcher::blockSignals();  // before any thread starts (the database's too), so that all inherit it
  allowAllFileDescriptors();
  DatabaseOptions databaseOptions = databaseOptionsFrom(a);
  // 0: the server's default (one GPU executor per worker, at most 4).
  databaseOptions.gpuExecutors = 0;
  if (auto streams = a.value("--gpu-streams")) {
    databaseOptions.gpuExecutors = static_cast<uint32_t>(parseCount("--gpu-streams", *streams, 1, 64));
  }
  const server::ServerOptions options = serverOptionsFrom(a);
  server::SparqlServer server(a.required("--db"), options, databaseOptions);
  const int port = server.bind();
  std::fprintf(stderr, "gsparql serve: listening on http://%s:%d/ (query page; SPARQL endpoint at /sparql)\n",
               options.bind.c_str(), port);
  std::fputs(policyLine(options).c_str(), stderr);
  SignalWatcher watcher(server);
  server.serve();
  std::fputs("gsparql serve: stopped\n", stderr);
  return 0;
}

}  // namespace

const Command& serveCommand() {
  static const Command command{
      {.name = "serve",
       .synopsis = "--db DIR [options]",
       .summary = "serve the SPARQL 1.1 Protocol and a query page over HTTP",
       .options = {{"--db", "DIR", "the database to serve"},
                   {"--bind", "ADDRESS", "the address to listen on (default 127.0.0.1)"},
                   {"--port", "N", "the port (default 7878; 0: any free port, printed at start)"},
                   {"--threads", "N", "queries run at once (default: 1/2 of the hardware threads, at least 2)"},
                   {"--queue", "N", "queries that may wait for a thread; one more gets 503 (default 64)"},
                   {"--connection-threads", "N", "threads that read requests and write answers (default: 1/2 of the hardware threads, at least 2)"},
                   sharedOption("--backend"),
                   sharedOption("--semantics"),
                   sharedOption("--optimizer"),
                   sharedOption("--cost-model"),
                   {"--timeout", "SECONDS", "a query's time limit, the most a request may ask (default 300; 0 or none: no limit)"},
                   {"--max-result-rows", "N", "the most rows (a graph: triples) a result may have (default: no limit)"},
                   {"--memory-budget", "SIZE", "memory for all queries in flight together (default: RAM/2)"},
                   sharedOption("--gpus"), sharedOption("--gpu-memory"), sharedOption("--gpu-peer-memory"),
                   {"--gpu-streams", "N", "GPU executors, a CUDA stream each (default: one a thread, at most 4)"},
                   sharedOption("--gpu-preload"),
                   sharedOption("--union-default-graph"), sharedOption("--no-geosparql-rewrite"),
                   sharedOption("--entailment"),
                   {"--update", "", "accept updates (default: refused with 403, unless --token is given)"},
                   {"--read-only", "", "refuse updates (403), even with --token"},
                   {"--token", "TOKEN", "accept updates that carry 'Authorization: Bearer TOKEN' (others: 401)"},
                   {"--cors-origin", "ORIGIN", "web pages of ORIGIN may write too, besides the server's own (repeatable)"},
                   {"--service-allow", "URL", "SERVICE may ask the endpoint URL and those under it (repeatable; default: none)"},
                   {"--service-allow-any", "", "SERVICE may ask any http(s) endpoint, internal ones too (see docs/server.md)"},
                   {"--access-log", "FILE|-", "a line per request to FILE (- for standard output)"},
                   {"--web", "DIR", "the query page's folder (default: web/ of the source tree built from)"}},
       .notes = std::string("The endpoint is http://ADDRESS:PORT/sparql, the query page is at /. SIGTERM or Ctrl-C\n"
                            "stops the server after answering the requests in flight; a second one cancels them\n"
                            "and exits within a second (status 1 if a query did not stop). docs/server.md has\n"
                            "the details.\n\n") +
                kOptimizerNotes},
      runServe};
  return command;
}

}  // namespace gsparql::cli
