#pragma once
// One query of a request, run on a worker thread into a QueryStream that the
// HTTP thread answers from.
#include <atomic>
#include <chrono>
#include <memory>
#include <string>

#include "gsparql/database.h"
#include "server/content_negotiation.h"
#include "server/query_stream.h"

namespace gsparql::server {

class QueryJob {
 public:
  // explain: run the query, discard its result and write the plan with
  // each operator's rows and times, and the timings, as text.
  QueryJob(std::shared_ptr<const Database> db, std::string text, const QueryOptions& options, ContentNegotiation negotiation,
           bool explain, size_t windowBytes);

  // On the worker; never throws: an error ends the stream (stream().error()).
  void run() noexcept;
  QueryStream& stream() { return stream_; }
  // From any thread: the query stops soon with QueryCancelled, or does not
  // start when it is still waiting for a worker.
  void cancel() { cancel_ = true; }

  // Read on the HTTP thread once the stream has output or has finished
  // (the stream's lock orders these writes before those reads).
  const std::string& mediaType() const { return mediaType_; }
  const QuerySummary& summary() const { return summary_; }  // when finished without error
  double queuedMilliseconds() const { return queuedMilliseconds_; }

 private:
  void explain();

  std::atomic<bool> cancel_{false};  // this query's own: options_.cancel
  const std::shared_ptr<const Database> db_;  // the generation the query reads, held while it runs
  const std::string text_;
  QueryOptions options_;
  const ContentNegotiation negotiation_;
  const bool explain_;
  const std::chrono::steady_clock::time_point created_ = std::chrono::steady_clock::now();
  double queuedMilliseconds_ = 0;
  std::string mediaType_;
  QuerySummary summary_;
  QueryStream stream_;
};

}  // namespace gsparql::server
