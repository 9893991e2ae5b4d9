#pragma once
// `gsparql serve`: the SPARQL 1.1 Protocol over HTTP (cpp-httplib) on a
// database directory, with the query page's files at /. Queries read the
// newest generation when they start; concurrent updates are committed
// together (update_committer.h).
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
#include "server/write_origins.h"

namespace httplib {
class Server;
struct Request;
struct Response;
}  // namespace httplib

namespace gsparql::server {

class AccessLog;
class HttpConnection;
struct HttpInput;
struct ProtocolRequest;
class QueryJob;
class UpdateCommitter;
class WorkerPool;

struct ServerOptions {
  std::string bind = "127.0.0.1";
  int port = 7878;            // 0: any free port (bind() says which)
  size_t threads = 0;         // queries run at once; 0: a quarter of the hardware's threads, at least 2
  size_t queueLength = 64;    // queries that may wait for a worker; past it: 503
  // Backend, optimizer, memory budget and maxRows (the result row limit);
  // timeout is the default and the most a request's timeout= may ask. The
  // memory budget (0: defaultMemoryBudgetBytes()) is the server's, for the
  // queries in flight together: each worker's query, and the update being
  // applied, get an equal share of it.
  QueryOptions query;
  // Updates are refused (403) unless allowed: safe by default, as Fuseki
  // (read-only unless --update). A token allows them to its bearers.
  bool updates = false;       // --update
  bool readOnly = false;      // updates get 403 whatever else is set
  std::string token;          // when set, updates need "Authorization: Bearer TOKEN" (else 401)
  std::vector<std::string> corsOrigins;   // origins besides the server's own that may write (write_origins.h)
  std::filesystem::path webDir;           // the query page's files; empty: none
  size_t maxRequestBytes = 4 << 20;       // larger requests get 413
  size_t windowBytes = 256 << 10;         // output held before the status is sent (query_stream.h)
  std::string accessLog;                  // "-" (standard output), a file, or empty for none
};

class SparqlServer {
 public:
  SparqlServer(std::filesystem::path dir, ServerOptions options, DatabaseOptions databaseOptions = {});
  ~SparqlServer();
  SparqlServer(const SparqlServer&) = delete;
  SparqlServer& operator=(const SparqlServer&) = delete;

  // Binds the address; returns the port. Throws Error when it cannot.
  int bind();
  // Answers requests until stop(); then returns once the requests in
  // flight have been answered.
  void serve();
  // From any thread (the signal thread): new requests get 503 from now on;
  // once the requests in flight are answered, serve() returns. (Stopping
  // cpp-httplib at once would cut streamed results short without telling
  // their clients.)
  void stop();
  // Queries in flight stop with QueryCancelled within a tenth of a second,
  // and those waiting for a worker do not start (a second signal).
  void cancelQueries() { cancelling_ = true; }

 private:
  void routes();
  void answerProtocol(const httplib::Request& req, const HttpInput& input, httplib::Response& res);
  // Waits for the job's first window, then streams the rest.
  void answerQuery(const std::shared_ptr<QueryJob>& job, httplib::Response& res);
  void streamRest(const std::shared_ptr<QueryJob>& job, httplib::Response& res);
  // Called while a connection's thread waits for its job: stops the job
  // once its client has left or the server cancels its queries.
  void watch(QueryJob& job, const HttpConnection& connection) const;
  // A GET on the endpoint without a query: the service description.
  void answerServiceDescription(const httplib::Request& req, httplib::Response& res) const;
  // Updates are accepted from someone: --update or --token, and not --read-only.
  bool acceptsUpdates() const;
  void checkUpdateAllowed(const httplib::Request& req) const;
  // A preflight: writes (to /update, or with a bearer token) only from the
  // origins that may write; reads from any.
  void answerPreflight(const httplib::Request& req, httplib::Response& res) const;
  void answerUpdate(const std::string& text, const QueryOptions& options, httplib::Response& res);
  // Folds the delta into a new generation on a thread of its own, between
  // updates; queries go on reading their snapshots.
  void mergeInBackground();
  // The newest generation, opened again once an update, here or from
  // another process, has committed a newer one; queries hold theirs.
  std::shared_ptr<const Database> database();
  QueryOptions optionsFor(const ProtocolRequest& request, const httplib::Request& req) const;
  void log(const httplib::Request& req, const httplib::Response& res);
  // Counts a request in flight; false once stopping.
  bool admit();
  void finished();

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
  std::mutex flightMutex_;
  size_t inFlight_ = 0;
  bool stopping_ = false;
  std::unique_ptr<AccessLog> accessLog_;
  std::unique_ptr<WorkerPool> pool_;
  int listeningSocket_ = -1;
  std::unique_ptr<httplib::Server> http_;  // after pool_: its threads end first
};

}  // namespace gsparql::server
