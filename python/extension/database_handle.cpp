#include "python/extension/database_handle.h"

namespace gsparql::python {

DatabaseHandle::DatabaseHandle(std::filesystem::path dir, const DatabaseOptions& options, Backend backend,
                               bool create)
    : dir_(std::move(dir)), options_(options), backend_(backend) {
  if (create && !holdsDatabase(dir_)) Database::load(dir_, {});
  snapshot();  // a missing or corrupt database fails here, not at the first query
}

std::shared_ptr<const Database> DatabaseHandle::snapshot() {
  std::lock_guard lock(mutex_);
  if (!open_ || !open_->isLatest()) open_ = std::make_shared<const Database>(dir_, options_);
  return open_;
}

void DatabaseHandle::close() {
  std::lock_guard lock(mutex_);
  open_.reset();
}

bool holdsDatabase(const std::filesystem::path& dir) { return std::filesystem::exists(dir / "CURRENT"); }

}  // namespace gsparql::python
