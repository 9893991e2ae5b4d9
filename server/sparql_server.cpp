#include "server/sparql_server.h"

#include <httplib.h>
#include <sys/socket.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <cstdio>
#include <thread>

#include "gsparql/error.h"
#include "server/access_log.h"
#include "server/connection_pool.h"
#include "server/http_connection.h"
#include "server/http_error.h"
#include "server/http_server.h"
#include "server/protocol_request.h"
#include "server/query_job.h"
#include "server/request_body.h"
#include "server/request_head.h"
#include "server/service_description.h"
#include "server/update_committer.h"
#include "server/worker_pool.h"

namespace gsparql::server {
namespace {

// Open connections served at once (connection_pool.h), each on a thread of
// its own; an idle one costs a sleeping thread until the read timeout.
constexpr size_t kMaxConnectionThreads = 16384;
// Requests a client may send over one connection before it is closed
// (cpp-httplib's default of 5 makes busy clients reconnect all the time).
constexpr size_t kKeepAliveRequests = 1000;
constexpr time_t kKeepAliveSeconds = 1;
// How long an update waits for the others (and for another writer) before
// 503, without a timeout.
constexpr auto kUpdateWait = std::chrono::seconds(30);
// How often a connection's thread waiting for its query looks whether the
// client is still there (and whether the server cancels its queries).
constexpr auto kWatchInterval = std::chrono::milliseconds(100);

// A query that asked for more than this server gives: the same query may
// run when the server is less busy or with a smaller result, so 503 rather
// than a 4xx that says the request itself is wrong.
bool isResourceLimit(const QueryError& e) {
  return dynamic_cast<const QueryTimedOut*>(&e) || dynamic_cast<const QueryOutOfMemory*>(&e) ||
         dynamic_cast<const QueryResultTooLarge*>(&e) || dynamic_cast<const QueryCancelled*>(&e);
}

struct ErrorAnswer {
  int status;
  std::string message;
  bool closesConnection = false;
};

// The status and message of an error: 4xx for what the client can fix
// (a syntax error's message starts with its line:column), 503 for limits,
// 500 only for faults of the server or its database.
ErrorAnswer answerOf(std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const HttpError& e) {
    return {e.status(), e.what(), e.closesConnection()};
  } catch (const QueryError& e) {
    return {isResourceLimit(e) ? 503 : 400, e.what()};
  } catch (const std::exception& e) {
    return {500, std::string("internal error: ") + e.what()};
  }
}

void answerError(httplib::Response& res, std::exception_ptr error) {
  const ErrorAnswer answer = answerOf(error);
  res.status = answer.status;
  // Required with 401 (RFC 9110 11.6.1), with a realm as RFC 6750 3 shows
  // it. (Jena 4.5's rupdate still fails on it: docs/server.md.)
  if (answer.status == 401) res.set_header("WWW-Authenticate", "Bearer realm=\"gsparql\"");
  if (answer.closesConnection) {
    res.set_header("Connection", "close");
    HttpConnection::current()->closeAfterResponse();
  }
  res.set_content(answer.message + "\n", "text/plain; charset=utf-8");
}

std::string toLower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

// The message of an error that cpp-httplib answered by itself, without a
// body: its 400 for a request line it cannot read (a raw '?' in the query no
// longer is one: http_connection.h), its 414 for a query by GET over its URL
// limit.
std::string libraryErrorMessage(int status, size_t maxRequestBytes) {
  switch (status) {
    case 400: return "400: a malformed request line (expected 'METHOD TARGET HTTP/1.1')";
    case 413: return bodyTooLarge(maxRequestBytes).what();
    case 414: return uriTooLong(maxRequestBytes).what();
    default: return std::to_string(status);
  }
}

// The credentials of "Bearer TOKEN": the scheme's name is case-insensitive
// (RFC 9110 11.1), the token is not.
std::optional<std::string_view> bearerToken(std::string_view authorization) {
  constexpr std::string_view kScheme = "bearer ";
  if (authorization.size() <= kScheme.size()) return std::nullopt;
  for (size_t i = 0; i < kScheme.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(authorization[i])) != kScheme[i]) return std::nullopt;
  }
  const size_t token = authorization.find_first_not_of(' ', kScheme.size());
  if (token == std::string_view::npos) return std::nullopt;
  return authorization.substr(token);
}

// Runs a handler; any error it throws becomes the response.
template <typename Handler>
void guarded(httplib::Response& res, Handler&& handler) {
  try {
    handler();
  } catch (...) {
    answerError(res, std::current_exception());
  }
}

// Server-Timing (shown by browsers' developer tools): the wait for a worker
// and, where the query ended before the response began, its phases.
std::string serverTiming(const QueryJob& job, bool finished) {
  char text[200];
  const int n = std::snprintf(text, sizeof(text), "queue;dur=%.3f", job.queuedMilliseconds());
  if (finished) {
    const QueryTimings& t = job.summary().timings;
    std::snprintf(text + n, sizeof(text) - n, ", parse;dur=%.3f, plan;dur=%.3f, execute;dur=%.3f",
                  t.parseMilliseconds, t.planMilliseconds, t.executeMilliseconds);
  }
  return text;
}

// The server's memory budget in equal shares: one for each worker's query
// and one for the update being applied (updates take turns), so that all
// of them together stay within it.
uint64_t memoryShare(uint64_t budgetBytes, size_t workers) {
  return (budgetBytes ? budgetBytes : defaultMemoryBudgetBytes()) / (workers + 1);
}

// A quarter of the cores, at least two: on the 16-core H100 machine 4
// workers answered 8.3K light queries/s, 16 workers 5.1K and 1 worker 4.0K
// (benchmarks/results/h100-2026-11-24-server-load/threads/).
size_t workersOf(const ServerOptions& options) {
  return options.threads ? options.threads : std::max(2u, std::thread::hardware_concurrency() / 4);
}

// GPU executors unless set: one per worker, at most 4, so that the workers'
// GPU calls run side by side on their own streams
// (benchmarks/results/h100-2026-11-24-gpu-streams/).
DatabaseOptions withGpuExecutors(DatabaseOptions options, size_t workers) {
  if (options.gpuExecutors == 0) options.gpuExecutors = static_cast<uint32_t>(std::min<size_t>(workers, 4));
  return options;
}

// Why the listening socket could not be bound, in words.
std::string bindFailure(int error) {
  if (error == EADDRINUSE) return "address already in use";
  if (error == 0 || error == EADDRNOTAVAIL) return "not an address of this machine";
  std::string text = std::strerror(error);
  text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  return text;
}

}  // namespace

SparqlServer::SparqlServer(std::filesystem::path dir, ServerOptions options, DatabaseOptions databaseOptions)
    : dir_(std::move(dir)),
      databaseOptions_(withGpuExecutors(databaseOptions, workersOf(options))),
      database_(std::make_shared<const Database>(dir_, databaseOptions_)),
      committer_(std::make_unique<UpdateCommitter>(
          dir_, databaseOptions_,
          [this](std::shared_ptr<const Database> newest) {  // what the batch left: not read again
            std::lock_guard lock(databaseMutex_);
            database_ = std::move(newest);
          },
          kUpdateWait)),
      options_(std::move(options)),
      writeOrigins_(options_.corsOrigins),
      http_(std::make_unique<HttpServer>()) {
  // Each worker's queries get the cores / workers share of the cores (worker_pool.h).
  options_.threads = workersOf(options_);
  options_.query.memoryBudgetBytes = memoryShare(options_.query.memoryBudgetBytes, options_.threads);
  if (!options_.accessLog.empty()) accessLog_ = std::make_unique<AccessLog>(options_.accessLog);
  // The cores shared out among the workers: one each by default.
  const size_t cores = std::max(1u, std::thread::hardware_concurrency());
  pool_ = std::make_unique<WorkerPool>(options_.threads, options_.queueLength, std::max<size_t>(1, cores / options_.threads));
  http_->new_task_queue = [] { return new ConnectionPool(kMaxConnectionThreads); };
  // cpp-httplib 0.11.4 listens with a backlog of 5: a burst of connections
  // would wait for SYN retransmissions (1 s, 3 s, ...). bind() listens
  // again on the same socket with the system's maximum.
  http_->set_socket_options([this](int socket) {
    // Not cpp-httplib's default_socket_options: its SO_REUSEPORT let a
    // second server listen on the same port, the kernel splitting the
    // connections between two databases. SO_REUSEADDR alone still lets a
    // restarted server listen while its old connections are in TIME_WAIT.
    const int yes = 1;
    ::setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    listeningSocket_ = socket;
  });
  http_->set_payload_max_length(options_.maxRequestBytes);
  http_->set_keep_alive_max_count(kKeepAliveRequests);
  // A connection's next request (its first, too) is awaited up to this
  // long, the thread waking 10 times a second (http_server.h; cpp-httplib's
  // own loop polled every 10 ms): 10,000 idle connections must not take
  // the CPU for long.
  http_->set_keep_alive_timeout(kKeepAliveSeconds);
  // A response goes out in several writes (headers, body, chunks): with
  // Nagle's algorithm each small one could wait for the client's delayed ACK (40 ms).
  http_->set_tcp_nodelay(true);
  routes();
}

SparqlServer::~SparqlServer() {
  if (merger_.joinable()) merger_.join();
}

void SparqlServer::routes() {
  // CORS: any page may query this endpoint (it has no cookies to protect);
  // writes only from the origins that may write (checkUpdateAllowed).
  http_->set_default_headers({{"Access-Control-Allow-Origin", "*"},
                              {"Access-Control-Expose-Headers", "Server-Timing"}});
  http_->Options(".*", [this](const httplib::Request& req, httplib::Response& res) { answerPreflight(req, res); });
  const char* endpoint = "/(sparql|query|update)";
  http_->Get(endpoint, [this](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      if (req.params.empty()) return answerServiceDescription(req, res);
      answerProtocol(req, readInput(req, nullptr, options_.maxRequestBytes), res);
    });
  });
  http_->Post(endpoint, [this](const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& body) {
    guarded(res, [&] { answerProtocol(req, readInput(req, &body, options_.maxRequestBytes), res); });
  });
  if (options_.webDir.empty() || !http_->set_mount_point("/", options_.webDir.string())) {
    http_->Get("/", [dir = options_.webDir](const httplib::Request&, httplib::Response& res) {
      res.status = 404;
      res.set_content("the query page is not installed (no folder " + dir.string() +
                          "): run `npm ci` in web/ or pass --web DIR; the endpoint is at /sparql\n",
                      "text/plain; charset=utf-8");
    });
  }
  // Errors without a body come from cpp-httplib itself.
  http_->set_error_handler([this](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return;
    res.set_content(libraryErrorMessage(res.status, options_.maxRequestBytes) + "\n", "text/plain; charset=utf-8");
  });
  http_->set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr error) {
    answerError(res, error);
  });
  // Before cpp-httplib reads a body: a refused request's body is never read.
  http_->set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
    Exchange& exchange = Exchange::current();
    exchange = {std::chrono::steady_clock::now(), 0, admit()};
    std::optional<HttpError> refusal =
        exchange.admitted ? refusalOf(req, HttpConnection::current()->malformedHead(), options_.maxRequestBytes)
                          : HttpError(503, "the server is shutting down", true);
    if (!refusal) return httplib::Server::HandlerResponse::Unhandled;
    answerError(res, std::make_exception_ptr(*refusal));
    return httplib::Server::HandlerResponse::Handled;
  });
  http_->set_logger([this](const httplib::Request& req, const httplib::Response& res) { log(req, res); });
}

void SparqlServer::answerProtocol(const httplib::Request& req, const HttpInput& input, httplib::Response& res) {
  const ProtocolRequest request = parseProtocolRequest(input);
  if (request.kind == ProtocolRequest::Kind::Update) {
    checkUpdateAllowed(req);
    return answerUpdate(request.text, optionsFor(request, req), res);
  }
  auto job = std::make_shared<QueryJob>(database(), request.text, optionsFor(request, req),
                                        ContentNegotiation(req.get_header_value("Accept"), request.format),
                                        request.explain, options_.windowBytes);
  if (!pool_->trySubmit([job] { job->run(); })) {
    res.set_header("Retry-After", "1");
    throw HttpError(503, "the server is busy: " + std::to_string(pool_->workers()) + " queries running and " +
                             std::to_string(pool_->queueLength()) + " waiting; try again later");
  }
  answerQuery(job, res);
}

void SparqlServer::answerQuery(const std::shared_ptr<QueryJob>& job, httplib::Response& res) {
  const HttpConnection& connection = *HttpConnection::current();
  while (!job->stream().waitForFirstWindow(kWatchInterval)) watch(*job, connection);
  const bool finished = job->stream().finished();
  if (finished && job->stream().error()) std::rethrow_exception(job->stream().error());
  res.set_header("Server-Timing", serverTiming(*job, finished));
  if (!finished) return streamRest(job, res);
  std::string body;
  job->stream().next(body);
  res.set_content(std::move(body), job->mediaType());
}

// A result longer than the first window goes out in chunks as the query
// writes it. An error after the status was sent can only end the response
// early: the chunked body then lacks its last chunk, which clients report
// as a truncated transfer.
void SparqlServer::streamRest(const std::shared_ptr<QueryJob>& job, httplib::Response& res) {
  res.set_chunked_content_provider(
      job->mediaType(),
      [this, job, &connection = *HttpConnection::current()](size_t, httplib::DataSink& sink) {
        watch(*job, connection);
        if (!job->stream().waitForOutput(kWatchInterval)) return true;  // asked again
        std::string chunk;
        if (!job->stream().next(chunk)) {
          if (job->stream().error()) {
            std::fprintf(stderr, "gsparql serve: a result ended early: %s", answerOf(job->stream().error()).message.c_str());
            std::fputc('\n', stderr);
            return false;
          }
          sink.done();
          return true;
        }
        Exchange::current().streamedBytes += chunk.size();
        if (sink.write(chunk.data(), chunk.size())) return true;
        job->stream().abandon();  // the client is gone: the query's next write fails and stops it
        return false;
      },
      [job](bool) { job->stream().abandon(); });
}

void SparqlServer::watch(QueryJob& job, const HttpConnection& connection) const {
  if (cancelling_) job.cancel();
  if (!connection.clientLeft()) return;
  job.cancel();
  job.stream().abandon();  // nobody reads what it would write
}

void SparqlServer::answerPreflight(const httplib::Request& req, httplib::Response& res) const {
  res.status = 204;
  res.set_header("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
  res.set_header("Access-Control-Allow-Headers", "Accept, Authorization, Content-Type");
  res.set_header("Access-Control-Max-Age", "86400");
  // A preflight does not say whether the POST will be a query or an
  // update; /update, or the Authorization header (which only updates
  // need), tell a write. An origin that may not write gets no
  // Allow-Origin, so the browser does not send the request.
  const std::string origin = req.get_header_value("Origin");
  const bool write = req.path == "/update" ||
                     toLower(req.get_header_value("Access-Control-Request-Headers")).find("authorization") != std::string::npos;
  if (!write) return;
  res.headers.erase("Access-Control-Allow-Origin");
  if (origin.empty() || !writeOrigins_.mayWrite(origin, req.get_header_value("Host"))) return;
  res.set_header("Access-Control-Allow-Origin", origin);
  res.set_header("Vary", "Origin");
}

void SparqlServer::answerServiceDescription(const httplib::Request& req, httplib::Response& res) const {
  const NegotiatedFormat format =
      ContentNegotiation(req.get_header_value("Accept"), std::nullopt).choose(QueryForm::Describe);
  std::string host = req.get_header_value("Host");
  if (host.empty()) {  // HTTP/1.0: the address the client reached
    int port = 0;
    HttpConnection::current()->get_local_ip_and_port(host, port);
    host += ":" + std::to_string(port);
  }
  res.set_content(describeService({.endpoint = "http://" + host + req.path,
                                   .updates = acceptsUpdates(),
                                   .unionDefaultGraph = options_.query.unionDefaultGraph}),
                  format.mediaType);
}

bool SparqlServer::acceptsUpdates() const {
  return !options_.readOnly && (options_.updates || !options_.token.empty());
}

void SparqlServer::checkUpdateAllowed(const httplib::Request& req) const {
  if (options_.readOnly) throw HttpError(403, "this server is read-only (--read-only): updates are refused");
  if (!acceptsUpdates()) {
    throw HttpError(403, "this server does not accept updates: start it with --update (or --token TOKEN) to allow them");
  }
  const std::string origin = req.get_header_value("Origin");
  if (!writeOrigins_.mayWrite(origin, req.get_header_value("Host"))) {
    throw HttpError(403, "an update from the web page of " + origin +
                             " is refused: only pages of this server, and of the origins named with --cors-origin, may write");
  }
  if (!options_.token.empty() && bearerToken(req.get_header_value("Authorization")) != options_.token) {
    throw HttpError(401, "an update needs the header 'Authorization: Bearer TOKEN' with the server's token");
  }
}

// On the connection's thread: an update's work is mostly the commit, which
// it shares with the updates that came meanwhile, and the answer is short.
// 200 once it is on disk.
void SparqlServer::answerUpdate(const std::string& text, const QueryOptions& options, httplib::Response& res) {
  UpdateSummary summary;
  try {  // another process writing is waited for, up to the update's timeout
    summary = committer_->commit(text, {options, /*allowLoad=*/false, /*mergeWhenDue=*/false});
  } catch (const UpdateWaitExpired& e) {
    res.set_header("Retry-After", "1");
    throw HttpError(503, std::string(e.what()) + "; try again later");
  } catch (const StorageError& e) {
    if (std::string_view(e.what()).find("is being written by another writer") == std::string_view::npos) throw;
    res.set_header("Retry-After", "1");
    throw HttpError(503, std::string(e.what()) + "; try again later");
  }
  if (summary.mergeDue) mergeInBackground();
  const std::string message = summary.changed ? "update committed: " + std::to_string(summary.triplesBefore) +
                                                    " -> " + std::to_string(summary.triplesAfter) +
                                                    " triples (" + summary.snapshot() + ")"
                                              : "update changed nothing";
  res.set_content(message + "\n", "text/plain; charset=utf-8");
}

void SparqlServer::mergeInBackground() {
  if (merging_.exchange(true)) return;
  if (merger_.joinable()) merger_.join();  // the merge before, ended
  merger_ = std::thread([this] {
    try {  // the batches of updates wait for its write lock meanwhile
      Database::mergeDelta(dir_);
    } catch (const Error& e) {  // another process writing, a full disk: the delta stays, a later update tries again
      std::fprintf(stderr, "gsparql serve: merging the delta failed: %s\n", e.what());
    }
    merging_ = false;
  });
}

std::shared_ptr<const Database> SparqlServer::database() {
  auto latest = [this]() -> std::shared_ptr<const Database> {
    std::shared_ptr<const Database> current;
    {
      std::lock_guard lock(databaseMutex_);
      current = database_;
    }
    return current->isLatest() ? current : nullptr;  // a file read and a stat: outside the lock
  };
  if (auto current = latest()) return current;
  // One thread opens the newest snapshot while the others wait for it: a
  // client that has just updated must read its update, and after each
  // update every thread opening its own would take the cores from queries.
  std::lock_guard opening(openMutex_);
  if (auto current = latest()) return current;
  try {  // the queries that hold the older snapshot go on meanwhile
    auto newest = std::make_shared<const Database>(dir_, databaseOptions_);
    std::lock_guard lock(databaseMutex_);
    database_ = newest;
    return newest;
  } catch (const Error&) {
    std::lock_guard lock(databaseMutex_);
    return database_;  // still a consistent snapshot; the next query tries again
  }
}

// A request's timeout= applies up to the server's, which is also the
// default; its dataset parameters name the dataset.
QueryOptions SparqlServer::optionsFor(const ProtocolRequest& request, const httplib::Request& req) const {
  QueryOptions options = options_.query;
  // Relative IRIs resolve against the endpoint's URL (Protocol 2.1.4).
  const std::string host = req.get_header_value("Host");
  options.baseIri = "http://" + (host.empty() ? "localhost" : host) + req.path;
  if (request.timeout) options.timeout = options.timeout ? std::min(*options.timeout, *request.timeout) : *request.timeout;
  options.defaultGraphs = request.defaultGraphs;
  options.namedGraphs = request.namedGraphs;
  return options;
}

void SparqlServer::log(const httplib::Request& req, const httplib::Response& res) {
  Exchange& exchange = Exchange::current();
  if (accessLog_) {
    std::optional<double> ms;
    if (exchange.start) ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - *exchange.start).count();
    accessLog_->write(req.remote_addr, req.method, req.path, res.status, res.body.size() + exchange.streamedBytes, ms);
  }
  if (exchange.admitted) finished();
  exchange = {};
}

bool SparqlServer::admit() {
  std::lock_guard lock(flightMutex_);
  if (stopping_) return false;
  ++inFlight_;
  return true;
}

// The logger runs once a response is sent whole: the last one lets serve() return.
void SparqlServer::finished() {
  std::lock_guard lock(flightMutex_);
  if (--inFlight_ == 0 && stopping_) http_->stop();
}

int SparqlServer::bind() {
  errno = 0;  // cpp-httplib says only that it failed; bind()'s errno says why
  const int port = options_.port == 0 ? http_->bind_to_any_port(options_.bind)
                                      : (http_->bind_to_port(options_.bind, options_.port) ? options_.port : -1);
  if (port < 0) {
    throw Error("cannot listen on " + options_.bind + ":" + std::to_string(options_.port) + ": " + bindFailure(errno));
  }
  if (listeningSocket_ >= 0) ::listen(listeningSocket_, SOMAXCONN);
  return port;
}

void SparqlServer::serve() { http_->listen_after_bind(); }

void SparqlServer::stop() {
  std::lock_guard lock(flightMutex_);
  stopping_ = true;
  if (inFlight_ == 0) http_->stop();
}

}  // namespace gsparql::server
