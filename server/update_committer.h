#pragma once
// Group commit of the server's updates (gsparql/update_batch.h): callers on
// many threads hand in their requests and block. One of them, the leader,
// applies every request waiting as one batch (one write transaction, one
// fsync) while newcomers queue; the first of those leads the next batch
// once it is done. Each request is applied on its own, as if the requests
// had come one after another, and each caller gets its own summary or error.
#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "gsparql/database.h"
#include "gsparql/error.h"
#include "gsparql/update.h"

namespace gsparql::server {

// A request that waited its whole time limit for the batches before it:
// it was not applied.
class UpdateWaitExpired : public Error {
 public:
  using Error::Error;
};

class UpdateCommitter {
 public:
  // `publish` gets the snapshot each batch leaves before its callers
  // return, so that a client reads its own update next (readers need not
  // open it again). `maxWait`: how long a request without a timeout waits
  // for the batches before its own, and for another writer. `opened`: the
  // snapshot readers hold as the committer starts (or null), which the first
  // batch starts from as the later ones start from their predecessor's: so
  // every snapshot published shares with the one before the data an update
  // left (and the GPU's copies of it: api/shared_gpu_executors.h).
  using Publish = std::function<void(std::shared_ptr<const Database>)>;
  UpdateCommitter(std::filesystem::path dir, DatabaseOptions databaseOptions, Publish publish,
                  std::chrono::milliseconds maxWait, std::shared_ptr<const Database> opened = nullptr);

  // Applies the request in the next batch and returns once it is on disk,
  // or throws its own error (QueryError, StorageError, UpdateWaitExpired)
  // having changed nothing. Its timeout (options.query.timeout) counts
  // from this call: the wait for earlier batches uses it up.
  UpdateSummary commit(std::string text, const UpdateOptions& options);

 private:
  struct Request;
  using Clock = std::chrono::steady_clock;

  // Takes every request waiting and applies them as one batch, the lock
  // released meanwhile.
  void lead(std::unique_lock<std::mutex>& lock);
  // Gives every request of the batch its summary or its error.
  void run(const std::vector<std::shared_ptr<Request>>& batch);
  // The time a request has left of its timeout (or of maxWait) at `now`.
  std::chrono::milliseconds timeLeft(const Request& request, Clock::time_point now) const;

  const std::filesystem::path dir_;
  const DatabaseOptions databaseOptions_;
  const Publish publish_;
  const std::chrono::milliseconds maxWait_;
  std::mutex mutex_;
  std::condition_variable changed_;  // a batch ended, or a request was answered
  std::deque<std::shared_ptr<Request>> queue_;
  bool leading_ = false;  // a batch is being applied
  // What the last batch left: the next one starts from a copy of it while
  // it is the newest. Only the leader uses it.
  std::shared_ptr<const Database> latest_;
};

}  // namespace gsparql::server
