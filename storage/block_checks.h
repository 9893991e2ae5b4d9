#pragma once
// Which blocks of a memory-mapped file have passed their check. A reader
// checks a block (its checksum, and whatever rules keep its reads in bounds)
// the first time it needs the block's bytes, so that damage ends the query
// with an error instead of a wrong answer, without reading a whole file
// before a query that needs a few blocks of it; after that the block costs
// one atomic load. The adjacency files' blocks are predicates
// (storage/adjacency.h), the term and value columns' runs of ids.
#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>

namespace gsparql {

class BlockChecks {
 public:
  BlockChecks() = default;
  explicit BlockChecks(size_t blocks) : state_(std::make_shared<State>(blocks)), passed_(state_->passed.get()) {}
  // Copies share the state: a copy of a snapshot (storage/graph_store.h)
  // reads the same bytes, checked once for both.

  size_t size() const { return state_ ? state_->blocks : 0; }
  // Runs `check()` (which throws on damage) unless block `block` has passed
  // it before. One thread checks a block while the others that need it
  // wait; a block that fails stays unchecked, so every use of it throws.
  template <typename Check>
  void ensure(size_t block, const Check& check) const {
    if (!passed_[block].load(std::memory_order_acquire)) [[unlikely]] checkOnce(block, check);
  }
  bool passed(size_t block) const { return passed_[block].load(std::memory_order_acquire); }
  // For data known to be sound without a check (built in memory), or
  // checked without the lock (AdjacencyFile's whole arrays). Const as
  // ensure() is: the flags are state shared by copies, not the object's value.
  void markPassed(size_t block) const { passed_[block].store(true, std::memory_order_release); }

 private:
  // Behind a pointer: atomics and mutexes do not move, the files that hold
  // these do, and copies share it.
  struct State {
    explicit State(size_t n) : blocks(n), passed(std::make_unique<std::atomic<bool>[]>(n)) {}
    size_t blocks;
    std::mutex mutex;
    std::unique_ptr<std::atomic<bool>[]> passed;
  };

  template <typename Check>
  void checkOnce(size_t block, const Check& check) const {
    std::lock_guard lock(state_->mutex);
    if (passed_[block].load(std::memory_order_relaxed)) return;  // another thread was first
    check();
    passed_[block].store(true, std::memory_order_release);
  }

  std::shared_ptr<State> state_;
  std::atomic<bool>* passed_ = nullptr;  // state_->passed: one load fewer per use
};

}  // namespace gsparql
