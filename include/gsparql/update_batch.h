#pragma once
// Group commit: several SPARQL 1.1 Update requests in one write transaction
// on a database directory, written together (docs/storage.md, "Update
// batches"). A server's concurrent updates take one fsync between them
// instead of one each, and its readers get the snapshot the batch leaves
// without replaying the delta.
#include <chrono>
#include <filesystem>
#include <memory>
#include <string_view>
#include <vector>

#include "gsparql/database.h"
#include "gsparql/update.h"

#include "gsparql/export.h"

namespace gsparql {

// Each request applies on what the requests before it left, and on its own:
// one that fails (a syntax error, a timeout, a LOAD that fails) throws from
// apply() and leaves no trace, and the batch goes on, exactly as if the
// requests had run one after another through Database::update. Those that
// only insert and delete triples are held in memory and written together
// by commit() as one delta file, with one fsync; one that needs a new
// generation (CLEAR, LOAD, many triples) has those before it written
// first, then commits itself as Database::update would.
//
// Each request's summary is returned once, by the call that made it
// durable. When writing fails, the call throws and the requests it would
// have written are not applied (on disk nor in the snapshot).
class GSPARQL_API UpdateBatch {
 public:
  // Takes the directory's write lock, waiting up to `patience` for another
  // writer (then StorageError, as Database::update). `latest`: a snapshot
  // of `dir` already open (the one the batch before left); while it is
  // still the newest, the batch starts from a copy of it instead of
  // opening the directory (RocksDB, files, the delta's replay), and the
  // snapshot the batch leaves keeps its plans and GPU executors. It must
  // live until snapshot(), or commit() where that is not called.
  explicit UpdateBatch(const std::filesystem::path& dir,
                       std::chrono::milliseconds patience = std::chrono::seconds(60),
                       const Database* latest = nullptr);
  ~UpdateBatch();  // without commit(), the requests not yet written are not applied
  UpdateBatch(const UpdateBatch&) = delete;
  UpdateBatch& operator=(const UpdateBatch&) = delete;

  // Applies one request (creating the database if needed); its timeout
  // counts from this call. Returns the summaries of the requests it made
  // durable: none, or (for a request that needed a new generation) those
  // before it and its own.
  std::vector<UpdateSummary> apply(std::string_view sparql, const UpdateOptions& options = {});
  // Writes the rest, then merges the delta when it is due and one of them
  // asked for it (UpdateOptions::mergeWhenDue); returns their summaries in
  // the order of apply(). Releases the write lock; apply() no more after it.
  std::vector<UpdateSummary> commit();
  // After commit(): the database as the batch left it, for reading. The
  // snapshot the batch kept moves into it, so that it need not read the
  // delta files again (opened from the directory when the batch merged).
  Database snapshot(const DatabaseOptions& options = {});

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
  const Database* latest_;  // shares its kept plans with the snapshot left (Database's private constructor)
};

}  // namespace gsparql
