#include "server/query_job.h"

#include <cstdio>

#include "gsparql/error.h"

namespace gsparql::server {
namespace {

// Takes a result and keeps nothing, for explain: the query runs to its end
// as it would for the client.
class DiscardingBuffer : public std::streambuf {
 protected:
  int_type overflow(int_type c) override { return traits_type::not_eof(c); }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

std::string timingsLine(const QuerySummary& summary) {
  char line[160];
  std::snprintf(line, sizeof(line), "time: parse %.3f ms, plan %.3f ms, execute and write %.3f ms; %llu rows\n",
                summary.timings.parseMilliseconds, summary.timings.planMilliseconds,
                summary.timings.executeMilliseconds, static_cast<unsigned long long>(summary.rows));
  return line;
}

}  // namespace

QueryJob::QueryJob(std::shared_ptr<const Database> db, std::string text, const QueryOptions& options, ContentNegotiation negotiation,
                   bool explain, size_t windowBytes)
    : db_(std::move(db)), text_(std::move(text)), options_(options), negotiation_(std::move(negotiation)), explain_(explain),
      stream_(windowBytes) {
  options_.cancel = &cancel_;
}

void QueryJob::run() noexcept {
  queuedMilliseconds_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - created_).count();
  try {
    if (cancel_) throw QueryCancelled();  // its client left while it waited
    if (explain_) {
      explain();
    } else {
      summary_ = db_->queryTo(text_, stream_.out(), [&](QueryForm form) {
        const NegotiatedFormat chosen = negotiation_.choose(form);
        mediaType_ = chosen.mediaType;
        return chosen.format;
      }, options_);
    }
    stream_.finish(nullptr);
  } catch (...) {
    stream_.finish(std::current_exception());
  }
}

void QueryJob::explain() {
  DiscardingBuffer discard;
  std::ostream nowhere(&discard);
  options_.stepTimes = true;
  options_.explain = true;
  summary_ = db_->queryTo(text_, nowhere, std::nullopt, options_);
  mediaType_ = "text/plain; charset=utf-8";
  stream_.out() << summary_.explain << timingsLine(summary_);
}

}  // namespace gsparql::server
