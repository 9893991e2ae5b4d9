#include "server/update_committer.h"

#include <algorithm>
#include <exception>
#include <optional>
#include <utility>

#include "gsparql/update_batch.h"

namespace gsparql::server {

struct UpdateCommitter::Request {
  Request(std::string text, const UpdateOptions& options) : text(std::move(text)), options(options) {}

  std::string text;
  UpdateOptions options;
  Clock::time_point arrived = Clock::now();
  // Under the committer's mutex: taken by a batch, and that batch ended.
  bool queued = true;
  bool done = false;
  // Written by the leader while it runs the batch, read by the caller once done.
  std::optional<UpdateSummary> summary;
  std::exception_ptr error;
  bool answered() const { return summary || error; }
};

UpdateCommitter::UpdateCommitter(std::filesystem::path dir, DatabaseOptions databaseOptions, Publish publish,
                                 std::chrono::milliseconds maxWait, std::shared_ptr<const Database> opened)
    : dir_(std::move(dir)), databaseOptions_(std::move(databaseOptions)), publish_(std::move(publish)),
      maxWait_(maxWait), latest_(std::move(opened)) {}

UpdateSummary UpdateCommitter::commit(std::string text, const UpdateOptions& options) {
  auto request = std::make_shared<Request>(std::move(text), options);
  std::unique_lock lock(mutex_);
  queue_.push_back(request);
  const auto deadline = request->arrived + timeLeft(*request, request->arrived);
  while (!request->done) {
    if (!leading_) {
      lead(lock);  // this request among the batch
    } else if (!request->queued) {
      changed_.wait(lock);  // in the batch being applied, which its own time limit bounds
    } else if (changed_.wait_until(lock, deadline) == std::cv_status::timeout && request->queued) {
      queue_.erase(std::find(queue_.begin(), queue_.end(), request));
      throw UpdateWaitExpired("the server is busy with other updates");
    }
  }
  if (request->error) std::rethrow_exception(request->error);
  return *request->summary;
}

void UpdateCommitter::lead(std::unique_lock<std::mutex>& lock) {
  leading_ = true;
  std::vector<std::shared_ptr<Request>> batch(queue_.begin(), queue_.end());
  queue_.clear();
  for (const auto& request : batch) request->queued = false;
  lock.unlock();
  run(batch);
  lock.lock();
  for (const auto& request : batch) request->done = true;
  leading_ = false;
  changed_.notify_all();
}

void UpdateCommitter::run(const std::vector<std::shared_ptr<Request>>& batch) {
  const auto start = Clock::now();
  std::chrono::milliseconds patience{1};
  for (const auto& request : batch) patience = std::max(patience, timeLeft(*request, start));
  std::deque<Request*> applied;  // in order, awaiting their summaries
  auto deliver = [&](std::vector<UpdateSummary> summaries) {
    for (UpdateSummary& summary : summaries) {
      applied.front()->summary = std::move(summary);
      applied.pop_front();
    }
  };
  try {
    UpdateBatch updates(dir_, patience, latest_.get());
    for (const auto& request : batch) {
      const auto left = timeLeft(*request, Clock::now());
      if (left <= std::chrono::milliseconds::zero()) {
        request->error = std::make_exception_ptr(UpdateWaitExpired("the server is busy with other updates"));
        continue;
      }
      UpdateOptions options = request->options;
      if (options.query.timeout) options.query.timeout = left;
      applied.push_back(request.get());
      try {
        deliver(updates.apply(request->text, options));
      } catch (...) {
        applied.pop_back();  // the request that failed: apply() returns nothing then
        request->error = std::current_exception();
      }
    }
    deliver(updates.commit());
    latest_ = std::make_shared<const Database>(updates.snapshot(databaseOptions_));
    publish_(latest_);
  } catch (...) {  // the write lock not had, a write that failed: the requests not yet on disk fail
    for (const auto& request : batch) {
      if (!request->answered()) request->error = std::current_exception();
    }
  }
}

std::chrono::milliseconds UpdateCommitter::timeLeft(const Request& request, Clock::time_point now) const {
  const std::chrono::milliseconds limit =
      request.options.query.timeout ? std::chrono::duration_cast<std::chrono::milliseconds>(*request.options.query.timeout)
                                    : maxWait_;
  return limit - std::chrono::duration_cast<std::chrono::milliseconds>(now - request.arrived);
}

}  // namespace gsparql::server
