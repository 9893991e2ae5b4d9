#include "server/sparql_server.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <thread>

#include "gsparql/error.h"
#include "server/access_log.h"
#include "server/content_negotiation.h"
#include "server/graph_store.h"
#include "server/http_error.h"
#include "server/http_server.h"
#include "server/multipart.h"
#include "server/protocol_input.h"
#include "server/protocol_request.h"
#include "server/query_job.h"
#include "server/request_limits.h"
#include "server/service_description.h"
#include "server/static_files.h"
#include "server/update_committer.h"
#include "server/worker_pool.h"

namespace gsparql::server {
namespace {

// Queries waiting for a worker (--queue) are one thing; updates wait for
// the commit on threads of their own, at most this many at once and this
// many more queued: past that, 503.
constexpr size_t kUpdateThreads = 16;
constexpr size_t kUpdateQueue = 256;
// How long an update waits for the others (and for another writer) before
// 503, without a timeout.
constexpr auto kUpdateWait = std::chrono::seconds(30);

constexpr const char* kPlainText = "text/plain; charset=utf-8";

// CORS: any page may query this endpoint (it has no cookies to protect);
// writes only from the origins that may write (checkUpdateAllowed).
HttpHeaders corsHeaders() {
  return {{"Access-Control-Allow-Origin", "*"}, {"Access-Control-Expose-Headers", "Server-Timing"}};
}

// A query that asked for more than this server gives: the same query may
// run when the server is less busy or with a smaller result, so 503 rather
// than a 4xx that says the request itself is wrong.
bool isResourceLimit(const QueryError& e) {
  return dynamic_cast<const QueryTimedOut*>(&e) || dynamic_cast<const QueryOutOfMemory*>(&e) ||
         dynamic_cast<const QueryResultTooLarge*>(&e) || dynamic_cast<const QueryCancelled*>(&e);
}

// The answer to an error: 4xx for what the client can fix (a syntax
// error's message starts with its line:column), 503 for limits, 500 only
// for faults of the server or its database.
HttpResponse errorResponse(std::exception_ptr error) {
  HttpResponse response{500, corsHeaders()};
  std::string message;
  try {
    std::rethrow_exception(error);
  } catch (const HttpError& e) {
    response.status = e.status();
    response.closeConnection = e.closesConnection();
    message = e.what();
    if (response.status == 503) response.setHeader("Retry-After", "1");  // busy, or shutting down: try again
  } catch (const QueryError& e) {
    response.status = isResourceLimit(e) ? 503 : 400;
    message = e.what();
  } catch (const std::exception& e) {
    message = std::string("internal error: ") + e.what();
  }
  // Required with 401 (RFC 9110 11.6.1), with a realm as RFC 6750 3 shows
  // it. (Jena 4.5's rupdate still fails on it: docs/server.md.)
  if (response.status == 401) response.setHeader("WWW-Authenticate", "Bearer realm=\"gsparql\"");
  response.setContent(message + "\n", kPlainText);
  return response;
}

// Answers with what `answer` returns or throws.
template <typename Answer>
void respondWith(HttpExchange& exchange, Answer&& answer) {
  try {
    exchange.respond(answer());
  } catch (...) {
    exchange.respond(errorResponse(std::current_exception()));
  }
}

std::string toLower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
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

size_t cores() { return std::max(1u, std::thread::hardware_concurrency()); }

// Half the cores each for the workers and for the connections: on the
// 16-core H200 machine under the load mix (64 clients), 8 workers and 8
// connection threads answered 53,600 queries/s (p99 12 ms), 4 and 2 28,500,
// 8 and 4 47,600, 12 and 4 38,700, 4 and 4 30,200
// (benchmarks/results/h200-2026-11-29-server-beast/threads/).
size_t workersOf(const ServerOptions& options) {
  return options.threads ? options.threads : std::max<size_t>(2, cores() / 2);
}

size_t connectionThreadsOf(const ServerOptions& options) {
  return options.connectionThreads ? options.connectionThreads : std::max<size_t>(2, cores() / 2);
}

// GPU executors unless set: one per worker, at most 4, so that the workers'
// GPU calls run side by side on their own streams
// (benchmarks/results/h100-2026-11-24-gpu-streams/).
DatabaseOptions withGpuExecutors(DatabaseOptions options, size_t workers) {
  if (options.gpuExecutors == 0) options.gpuExecutors = static_cast<uint32_t>(std::min<size_t>(workers, 4));
  return options;
}

HttpLimits limitsOf(const ServerOptions& options) {
  HttpLimits limits;
  limits.maxBodyBytes = options.maxRequestBytes;
  limits.requestTimeout = options.requestTimeout;
  limits.refusalHeaders = corsHeaders();
  return limits;
}

bool isEndpoint(std::string_view path) { return path == "/sparql" || path == "/query" || path == "/update"; }

// The Graph Store's own endpoint (graph_store.h), and its graphs named directly.
bool isGraphStorePath(std::string_view path) { return path == "/data" || path.starts_with("/data/"); }

// A request of the Graph Store HTTP Protocol: to /data, or to an endpoint
// naming a graph without a query or update, or one that only the Graph
// Store takes (PUT, DELETE: it says what is missing).
bool isGraphStoreRequest(const HttpRequest& req) {
  if (isGraphStorePath(req.path)) return true;
  return isEndpoint(req.path) && (namesGraphOnly(req.params) || req.method == "PUT" || req.method == "DELETE");
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
          kUpdateWait, database_)),
      options_(std::move(options)),
      writeOrigins_(options_.corsOrigins) {
  // Each worker's queries get the cores / workers share of the cores (worker_pool.h).
  options_.threads = workersOf(options_);
  options_.query.memoryBudgetBytes = memoryShare(options_.query.memoryBudgetBytes, options_.threads);
  options_.query.service = options_.service;
  if (!options_.accessLog.empty()) accessLog_ = std::make_unique<AccessLog>(options_.accessLog);
  http_ = std::make_unique<HttpServer>(static_cast<HttpHandler&>(*this), limitsOf(options_));
  const size_t threadsPerTask = std::max<size_t>(1, cores() / options_.threads);
  pool_ = std::make_unique<WorkerPool>(options_.threads, options_.queueLength, threadsPerTask);
  updates_ = std::make_unique<WorkerPool>(kUpdateThreads, kUpdateQueue, threadsPerTask);
}

SparqlServer::~SparqlServer() {
  cancelQueries();
  pool_.reset();
  updates_.reset();
  if (merger_.joinable()) merger_.join();
}

void SparqlServer::handle(std::shared_ptr<HttpExchange> exchange) {
  if (!admit()) {
    return exchange->respond(errorResponse(std::make_exception_ptr(HttpError(503, "the server is shutting down", true))));
  }
  try {
    route(exchange);
  } catch (...) {
    exchange->respond(errorResponse(std::current_exception()));
  }
}

void SparqlServer::route(const std::shared_ptr<HttpExchange>& exchange) {
  const HttpRequest& req = exchange->request();
  if (req.method == "OPTIONS") return exchange->respond(preflight(req));
  if (isGraphStoreRequest(req)) return startGraphStore(exchange);
  if (isEndpoint(req.path)) {
    const bool read = req.method == "GET" || req.method == "HEAD";
    if (read && req.params.empty()) return exchange->respond(serviceDescription(req));
    return answerProtocol(exchange);
  }
  if (req.method != "GET" && req.method != "HEAD") {
    throw HttpError(405, "only GET and HEAD are served at " + req.path + "; the SPARQL endpoint is /sparql");
  }
  if (req.path == "/health") return exchange->respond(health());
  HttpResponse file = staticFile(options_.webDir, req.path);
  for (auto& [name, value] : corsHeaders()) file.setHeader(name, value);
  exchange->respond(std::move(file));
}

void SparqlServer::answerProtocol(const std::shared_ptr<HttpExchange>& exchange) {
  const ProtocolRequest request = parseProtocolRequest(protocolInputOf(exchange->request()));
  if (request.kind == ProtocolRequest::Kind::Update) return startUpdate(exchange, request);
  startQuery(exchange, request);
}

void SparqlServer::startQuery(const std::shared_ptr<HttpExchange>& exchange, const ProtocolRequest& request) {
  const HttpRequest& req = exchange->request();
  auto job = std::make_shared<QueryJob>(database(), request.text, optionsFor(request, req),
                                        ContentNegotiation(req.header("Accept"), request.format), request.explain,
                                        options_.windowBytes);
  track(job);
  // Until the first window: then the answer's status is known.
  job->stream().onNews([this, weakJob = std::weak_ptr<QueryJob>(job), exchange] {
    if (auto job = weakJob.lock(); job && job->stream().firstWindowReady()) answerQuery(job, *exchange);
  });
  exchange->onClientLeft([weakJob = std::weak_ptr<QueryJob>(job)] {
    if (auto job = weakJob.lock()) {
      job->cancel();
      job->stream().abandon();  // nobody reads what it would write
    }
  });
  if (!pool_->trySubmit([job] { job->run(); })) {
    job->stream().onNews(nullptr);
    throw HttpError(503, "the server is busy: " + std::to_string(pool_->workers()) + " queries running and " +
                             std::to_string(pool_->queueLength()) + " waiting; try again later");
  }
}

// On the worker, from the stream's news; once: the news that follow go to
// the connection (stream()).
void SparqlServer::answerQuery(const std::shared_ptr<QueryJob>& job, HttpExchange& exchange) {
  QueryStream& stream = job->stream();
  stream.onNews(nullptr);
  const bool finished = stream.finished();
  if (finished && stream.error()) return exchange.respond(errorResponse(stream.error()));
  HttpResponse response{200, corsHeaders()};
  response.setHeader("Content-Type", job->mediaType());
  response.setHeader("Server-Timing", serverTiming(*job, finished));
  if (!finished) return exchange.stream(std::move(response), std::shared_ptr<BodySource>(job, &stream));
  stream.take(response.body);
  exchange.respond(std::move(response));
}

HttpResponse SparqlServer::preflight(const HttpRequest& req) const {
  HttpResponse response{204, corsHeaders()};
  response.setHeader("Access-Control-Allow-Methods", "GET, HEAD, POST, PUT, DELETE, OPTIONS");
  response.setHeader("Access-Control-Allow-Headers", "Accept, Authorization, Content-Type");
  response.setHeader("Access-Control-Max-Age", "86400");
  // A preflight does not say whether the POST will be a query or an
  // update; /update, the Graph Store's /data, PUT and DELETE, or the
  // Authorization header (which only writes need), tell a write. An origin
  // that may not write gets no Allow-Origin, so the browser does not send
  // the request.
  const std::string origin = req.header("Origin");
  const std::string method = req.header("Access-Control-Request-Method");
  const bool write = req.path == "/update" || isGraphStorePath(req.path) || method == "PUT" || method == "DELETE" ||
                     toLower(req.header("Access-Control-Request-Headers")).find("authorization") != std::string::npos;
  if (!write) return response;
  response.eraseHeader("Access-Control-Allow-Origin");
  if (origin.empty() || !writeOrigins_.mayWrite(origin, req.header("Host"))) return response;
  response.setHeader("Access-Control-Allow-Origin", origin);
  response.setHeader("Vary", "Origin");
  return response;
}

HttpResponse SparqlServer::serviceDescription(const HttpRequest& req) const {
  const NegotiatedFormat format = ContentNegotiation(req.header("Accept"), std::nullopt).choose(QueryForm::Describe);
  std::string host = req.header("Host");
  if (host.empty()) host = req.localAddress + ":" + std::to_string(req.localPort);  // HTTP/1.0: the address the client reached
  HttpResponse response{200, corsHeaders()};
  response.setContent(describeService({.endpoint = "http://" + host + req.path,
                                       .updates = acceptsUpdates(),
                                       .unionDefaultGraph = options_.query.unionDefaultGraph}),
                      format.mediaType);
  return response;
}

bool SparqlServer::acceptsUpdates() const {
  return !options_.readOnly && (options_.updates || !options_.token.empty());
}

void SparqlServer::checkUpdateAllowed(const HttpRequest& req) const {
  if (options_.readOnly) throw HttpError(403, "this server is read-only (--read-only): updates are refused");
  if (!acceptsUpdates()) {
    throw HttpError(403, "this server does not accept updates: start it with --update (or --token TOKEN) to allow them");
  }
  const std::string origin = req.header("Origin");
  if (!writeOrigins_.mayWrite(origin, req.header("Host"))) {
    throw HttpError(403, "an update from the web page of " + origin +
                             " is refused: only pages of this server, and of the origins named with --cors-origin, may write");
  }
  if (!options_.token.empty() && bearerToken(req.header("Authorization")) != options_.token) {
    throw HttpError(401, "an update needs the header 'Authorization: Bearer TOKEN' with the server's token");
  }
}

void SparqlServer::startUpdate(const std::shared_ptr<HttpExchange>& exchange, const ProtocolRequest& request) {
  checkUpdateAllowed(exchange->request());
  const UpdateOptions options{optionsFor(request, exchange->request()), /*allowLoad=*/false, /*mergeWhenDue=*/false};
  const bool queued = updates_->trySubmit([this, exchange, text = request.text, options] {
    respondWith(*exchange, [&] { return updateResponse(commitUpdate(text, options)); });
  });
  if (!queued) throw HttpError(503, "the server is busy with other updates; try again later");
}

// Once the update is on disk.
HttpResponse SparqlServer::updateResponse(const UpdateSummary& summary) {
  const std::string message = summary.changed ? "update committed: " + std::to_string(summary.triplesBefore) +
                                                    " -> " + std::to_string(summary.triplesAfter) +
                                                    " triples (" + summary.snapshot() + ")"
                                              : "update changed nothing";
  HttpResponse response{200, corsHeaders()};
  response.setContent(message + "\n", kPlainText);
  return response;
}

UpdateSummary SparqlServer::commitUpdate(const std::string& text, const UpdateOptions& options) {
  UpdateSummary summary;
  try {  // another process writing is waited for, up to the update's timeout
    summary = committer_->commit(text, options);
  } catch (const UpdateWaitExpired& e) {
    throw HttpError(503, std::string(e.what()) + "; try again later");
  } catch (const StorageError& e) {
    if (std::string_view(e.what()).find("is being written by another writer") == std::string_view::npos) throw;
    throw HttpError(503, std::string(e.what()) + "; try again later");
  }
  if (summary.mergeDue) mergeInBackground();
  return summary;
}

// Reads on the query workers, writes on the update threads; writes are
// refused, and committed, as updates are.
void SparqlServer::startGraphStore(const std::shared_ptr<HttpExchange>& exchange) {
  const HttpRequest& req = exchange->request();
  GraphStoreRequest request = graphStoreRequestOf(protocolInputOf(req), req.path, req.header("Host"), req.header("Accept"));
  request.boundary = multipartBoundary(req.header("Content-Type")).value_or("");
  const bool write = request.method != "GET" && request.method != "HEAD";
  if (write) checkUpdateAllowed(req);
  WorkerPool& pool = write ? *updates_ : *pool_;
  const bool queued = pool.trySubmit([this, exchange, request = std::move(request)] {
    respondWith(*exchange, [&] { return graphStoreResponse(exchange->request(), request); });
  });
  if (!queued) throw HttpError(503, "the server is busy; try again later");
}

HttpResponse SparqlServer::graphStoreResponse(const HttpRequest& req, const GraphStoreRequest& request) {
  const GraphStoreAccess access{
      [this] { return database(); }, [&] { checkUpdateAllowed(req); },
      [this](const std::string& update) { commitUpdate(update, {options_.query, /*allowLoad=*/true, /*mergeWhenDue=*/false}); },
      options_.query};
  const GraphStoreResponse answer = answerGraphStore(request, access);
  HttpResponse response{answer.status, corsHeaders()};
  for (const auto& [name, value] : answer.headers) response.setHeader(name, value);
  if (!answer.contentType.empty()) response.setContent(answer.body, answer.contentType);
  return response;
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

// The newest snapshot, opened as a query would open it: a replica whose
// folder stopped following the writer's fails its check with it.
HttpResponse SparqlServer::health() {
  const DatabaseStatistics stats = database()->statistics();
  HttpResponse response{200, corsHeaders()};
  response.setHeader("Content-Type", "application/json");
  response.setHeader("Cache-Control", "no-store");
  response.body = "{\"status\": \"ok\", \"snapshot\": \"" + snapshotName(stats.generation, stats.deltaFiles) +
                  "\", \"generation\": " + std::to_string(stats.generation) +
                  ", \"deltaFiles\": " + std::to_string(stats.deltaFiles) + ", \"triples\": " +
                  std::to_string(stats.triples) + "}\n";
  return response;
}

std::shared_ptr<const Database> SparqlServer::heldSnapshot() {
  std::lock_guard lock(databaseMutex_);
  return database_;
}

std::shared_ptr<const Database> SparqlServer::database() {
  // isLatest reads a file and stats another: outside the lock.
  if (auto current = heldSnapshot(); current->isLatest()) return current;
  // One thread opens the newest snapshot while the others wait for it: a
  // client that has just updated must read its update, and after each
  // update every thread opening its own would take the cores from queries.
  std::lock_guard opening(openMutex_);
  const std::shared_ptr<const Database> current = heldSnapshot();
  if (current->isLatest()) return current;  // opened by the thread before
  try {  // the queries that hold the older snapshot go on meanwhile
    auto newest = std::make_shared<const Database>(current->newest());
    std::lock_guard lock(databaseMutex_);
    database_ = newest;
    return newest;
  } catch (const Error&) {
    return heldSnapshot();  // still a consistent snapshot; the next query tries again
  }
}

// A request's timeout= applies up to the server's, which is also the
// default; its dataset parameters name the dataset.
QueryOptions SparqlServer::optionsFor(const ProtocolRequest& request, const HttpRequest& req) const {
  QueryOptions options = options_.query;
  // Relative IRIs resolve against the endpoint's URL (Protocol 2.1.4).
  const std::string host = req.header("Host");
  options.baseIri = "http://" + (host.empty() ? "localhost" : host) + req.path;
  if (request.timeout) options.timeout = options.timeout ? std::min(*options.timeout, *request.timeout) : *request.timeout;
  options.defaultGraphs = request.defaultGraphs;
  options.namedGraphs = request.namedGraphs;
  return options;
}

void SparqlServer::completed(const HttpRequest& req, int status, uint64_t bodyBytes, bool handled) {
  if (accessLog_) {
    std::optional<double> ms;
    if (handled) ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - req.received).count();
    accessLog_->write(req.client, req.method, req.path, status, bodyBytes, ms);
  }
  if (handled) finished();
}

void SparqlServer::track(const std::shared_ptr<QueryJob>& job) {
  std::lock_guard lock(jobsMutex_);
  std::erase_if(jobs_, [](const std::weak_ptr<QueryJob>& old) { return old.expired(); });
  jobs_.push_back(job);
  if (cancelling_) job->cancel();
}

void SparqlServer::cancelQueries() {
  std::lock_guard lock(jobsMutex_);
  cancelling_ = true;
  for (const auto& weak : jobs_) {
    if (auto job = weak.lock()) job->cancel();
  }
}

// Every request that reached the handler is counted until its answer is
// sent (completed): the last one lets serve() return once stopping.
bool SparqlServer::admit() {
  std::lock_guard lock(flightMutex_);
  ++inFlight_;
  return !stopping_;
}

void SparqlServer::finished() {
  std::lock_guard lock(flightMutex_);
  if (--inFlight_ == 0 && stopping_) http_->stop();
}

int SparqlServer::bind() { return http_->bind(options_.bind, options_.port); }

void SparqlServer::serve() { http_->run(connectionThreadsOf(options_)); }

void SparqlServer::stop() {
  std::lock_guard lock(flightMutex_);
  stopping_ = true;
  if (inFlight_ == 0) http_->stop();
}

}  // namespace gsparql::server
