#pragma once
// gsparql.Cancel: stops the queries and updates it is passed to (cancel=),
// from any thread, as QueryOptions::cancel does in C++.
#include <atomic>
#include <memory>

namespace gsparql::python {

class Cancel {
 public:
  void cancel() { flag_->store(true); }
  bool cancelled() const { return flag_->load(); }
  // Shared, so that a call keeps its flag whatever becomes of this object.
  std::shared_ptr<std::atomic<bool>> flag() const { return flag_; }

 private:
  std::shared_ptr<std::atomic<bool>> flag_ = std::make_shared<std::atomic<bool>>(false);
};

}  // namespace gsparql::python
