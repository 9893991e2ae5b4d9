#pragma once
// A database directory as gsparql.Database holds it: a reader of its current
// snapshot, opened again once a load or an update (this object's or another
// process's) has committed a newer one, so that each query sees the latest
// data, as pyoxigraph's Store does.
#include <gsparql/database.h>

#include <filesystem>
#include <memory>
#include <mutex>

namespace gsparql::python {

class DatabaseHandle {
 public:
  // With `create`, a directory without a database gets an empty one (as
  // Database::load and Database::update make one); without, opening it
  // throws StorageError.
  DatabaseHandle(std::filesystem::path dir, const DatabaseOptions& options, Backend backend, bool create);

  // The reader of the current snapshot. Shared: a query keeps the one it
  // started with while another thread opens a newer one.
  std::shared_ptr<const Database> snapshot();
  // Lets the snapshot go (its generation may then be removed by a writer);
  // the next call opens the current one.
  void close();

  const std::filesystem::path& dir() const { return dir_; }
  Backend backend() const { return backend_; }

 private:
  const std::filesystem::path dir_;
  const DatabaseOptions options_;
  const Backend backend_;
  std::mutex mutex_;
  std::shared_ptr<const Database> open_;
};

// Whether `dir` holds a database: the file naming its current generation
// (storage/generations.h) is there.
bool holdsDatabase(const std::filesystem::path& dir);

}  // namespace gsparql::python
