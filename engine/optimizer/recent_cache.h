#pragma once
// A bounded map from text keys to shared, immutable values that keeps the
// most recently used: for work that depends only on its key and is asked
// again and again (a server's clients repeat their queries): the plans of
// BGPs (plan_cache.h), parsed query texts (api/parsed_query_cache.h) and the
// terms a FILTER lets through (planner/value_narrowing.cpp).
// Thread-safe; the values are made outside it, so a slow one holds no lock.
#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace gsparql::engine {

template <typename Value>
class RecentCache {
 public:
  explicit RecentCache(size_t maxEntries) : maxEntries_(maxEntries) {}
  RecentCache(const RecentCache&) = delete;
  RecentCache& operator=(const RecentCache&) = delete;

  // The value of `key`, else null; a hit becomes the most recent.
  std::shared_ptr<const Value> find(std::string_view key) {
    std::lock_guard lock(mutex_);
    auto found = byKey_.find(key);
    if (found == byKey_.end()) return nullptr;
    recent_.splice(recent_.begin(), recent_, found->second);
    return found->second->second;
  }

  // Keeps `value` for `key` (unless another thread did first: its value is
  // returned then); the least recently used goes when full.
  std::shared_ptr<const Value> insert(std::string key, std::shared_ptr<const Value> value) {
    std::lock_guard lock(mutex_);
    if (maxEntries_ == 0) return value;
    if (auto found = byKey_.find(key); found != byKey_.end()) return found->second->second;
    recent_.emplace_front(std::move(key), std::move(value));
    byKey_.emplace(recent_.front().first, recent_.begin());
    if (recent_.size() > maxEntries_) {
      byKey_.erase(recent_.back().first);
      recent_.pop_back();
    }
    return recent_.front().second;
  }

  size_t size() const {
    std::lock_guard lock(mutex_);
    return recent_.size();
  }

 private:
  using Entry = std::pair<std::string, std::shared_ptr<const Value>>;

  size_t maxEntries_;
  mutable std::mutex mutex_;
  std::list<Entry> recent_;  // most recently used first
  std::unordered_map<std::string_view, typename std::list<Entry>::iterator> byKey_;  // views of recent_'s keys
};

}  // namespace gsparql::engine
