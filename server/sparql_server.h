#pragma once
// `gsparql serve`: the SPARQL 1.1 Protocol over HTTP (http_server.h) on a
// database directory, with the query page's files at /. Queries read the
// newest generation when they start and run on the workers; updates wait
// for their commit on threads of their own, and concurrent ones are
// committed together (update_committer.h).
#include <atomic>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>
#include <optional>
#include <string>
#include <vector>

#include "gsparql/database.h"
#include "server/http_exchange.h"
#include "server/write_origins.h"

namespace gsparql::server {

class AccessLog;
class HttpServer;
struct GraphStoreRequest;
struct HttpInput;
struct ProtocolRequest;
class QueryJob;
class UpdateCommitter;
class WorkerPool;

struct ServerOptions {
  std::string bind = "127.0.0.1";
  int port = 7878;            // 0: any free port (bind() says which)
  size_t threads = 0;         // queries run at once; 0: half the hardware's threads, at least 2
  size_t queueLength = 64;    // queries that may wait for a worker; past it: 503
  size_t connectionThreads = 0;  // threads that read requests and write answers; 0: half the hardware's, at least 2
  // Backend, optimizer, memory budget and maxRows (the result row limit);
  // timeout is the default and the most a request's timeout= may ask. The
  // memory budget (0: defaultMemoryBudgetBytes()) is the server's, for the
  // queries in flight together: each worker's query, and the update being
  // applied, get an equal share of it.
  QueryOptions query;
  // The endpoints a query's SERVICE may ask, in place of query.service:
  // none unless allowed (--service-allow), so that a query cannot make the
  // server fetch URLs of its choosing (SSRF), as Fuseki refuses SERVICE.
  ServiceAccess service = ServiceAccess::none();
  // Updates are refused (403) unless allowed: safe by default, as Fuseki
  // (read-only unless --update). A token allows them to its bearers.
  bool updates = false;       // --update
  bool readOnly = false;      // updates get 403 whatever else is set
  std::string token;          // when set, updates need "Authorization: Bearer TOKEN" (else 401)
  std::vector<std::string> corsOrigins;   // origins besides the server's own that may write (write_origins.h)
  std::filesystem::path webDir;           // the query page's files; empty: none
  size_t maxRequestBytes = 4 << 20;       // larger requests get 413
  // A client has this long to send a request's head, and then its body
  // (http_server.h); an idle connection is closed after it.
  std::chrono::milliseconds requestTimeout{10000};
  size_t windowBytes = 256 << 10;         // output held before the status is sent (query_stream.h)
  std::string accessLog;                  // "-" (standard output), a file, or empty for none
};

class SparqlServer final : private HttpHandler {
 public:
  SparqlServer(std::filesystem::path dir, ServerOptions options, DatabaseOptions databaseOptions = {});
  ~SparqlServer() override;
  SparqlServer(const SparqlServer&) = delete;
  SparqlServer& operator=(const SparqlServer&) = delete;

  // Binds the address; returns the port. Throws Error when it cannot.
  int bind();
  // Answers requests until stop(); then returns once the requests in
  // flight have been answered.
  void serve();
  // From any thread (the signal thread): new requests get 503 from now on;
  // once the requests in flight are answered, serve() returns. (Stopping
  // at once would cut streamed results short without telling their
  // clients.)
  void stop();
  // Queries in flight stop with QueryCancelled within a tenth of a second,
  // and those waiting for a worker do not start (a second signal).
  void cancelQueries();

 private:
  void handle(std::shared_ptr<HttpExchange> exchange) override;
  void completed(const HttpRequest& request, int status, uint64_t bodyBytes, bool handled) override;
  void route(const std::shared_ptr<HttpExchange>& exchange);
  void answerProtocol(const std::shared_ptr<HttpExchange>& exchange);
  void startQuery(const std::shared_ptr<HttpExchange>& exchange, const ProtocolRequest& request);
  // Once the job's first window is there (or it ended): its status, and
  // the whole answer or the start of a stream.
  void answerQuery(const std::shared_ptr<QueryJob>& job, HttpExchange& exchange);
  // A GET on the endpoint without a query: the service description.
  HttpResponse serviceDescription(const HttpRequest& req) const;
  // GET /health: 200 and the snapshot this server answers from, for a load
  // balancer's health check (docs/server.md, "Replicas").
  HttpResponse health();
  // Updates are accepted from someone: --update or --token, and not --read-only.
  bool acceptsUpdates() const;
  void checkUpdateAllowed(const HttpRequest& req) const;
  // A preflight: writes (to /update, or with a bearer token) only from the
  // origins that may write; reads from any.
  HttpResponse preflight(const HttpRequest& req) const;
  // On an update thread: the update's work is mostly the commit, one at a
  // time, and the answer is short.
  void startUpdate(const std::shared_ptr<HttpExchange>& exchange, const ProtocolRequest& request);
  static HttpResponse updateResponse(const UpdateSummary& summary);
  // Applies an update in the next batch; HttpError 503 after waiting too
  // long for the batches before it, or for another process writing.
  UpdateSummary commitUpdate(const std::string& text, const UpdateOptions& options);
  // A request of the Graph Store HTTP Protocol (graph_store.h).
  void startGraphStore(const std::shared_ptr<HttpExchange>& exchange);
  HttpResponse graphStoreResponse(const HttpRequest& req, const GraphStoreRequest& request);
  // Folds the delta into a new generation on a thread of its own, between
  // updates; queries go on reading their snapshots.
  void mergeInBackground();
  // The newest generation, opened again once an update, here or from
  // another process, has committed a newer one; queries hold theirs.
  std::shared_ptr<const Database> database();
  std::shared_ptr<const Database> heldSnapshot();  // the one database() last gave, as it is now
  QueryOptions optionsFor(const ProtocolRequest& request, const HttpRequest& req) const;
  // Counts a request in flight; false once stopping.
  bool admit();
  void finished();
  void track(const std::shared_ptr<QueryJob>& job);

  const std::filesystem::path dir_;
  const DatabaseOptions databaseOptions_;
  std::mutex databaseMutex_;
  std::shared_ptr<const Database> database_;
  std::mutex openMutex_;  // held by the one thread opening a newer snapshot
  std::unique_ptr<UpdateCommitter> committer_;  // this server's updates, in batches
  std::atomic<bool> merging_{false};
  std::thread merger_;
  ServerOptions options_;
  WriteOrigins writeOrigins_;
  std::atomic<bool> cancelling_{false};
  std::mutex jobsMutex_;
  std::vector<std::weak_ptr<QueryJob>> jobs_;  // queries that may run: cancelQueries() stops them
  std::mutex flightMutex_;
  size_t inFlight_ = 0;
  bool stopping_ = false;
  std::unique_ptr<AccessLog> accessLog_;
  // The connections' answers are posted to http_'s threads: the pools'
  // threads, which post them, end first.
  std::unique_ptr<HttpServer> http_;
  std::unique_ptr<WorkerPool> pool_;     // queries
  std::unique_ptr<WorkerPool> updates_;  // updates, which block on the commit
};

}  // namespace gsparql::server
