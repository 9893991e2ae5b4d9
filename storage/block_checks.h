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
#include <cstdint>
#include <memory>

namespace gsparql {

class BlockChecks {
 public:
  BlockChecks() = default;
  explicit BlockChecks(size_t blocks) : state_(std::make_shared<State>(blocks)), blocks_(state_->blocks.get()) {}
  // Copies share the state: a copy of a snapshot (storage/graph_store.h)
  // reads the same bytes, checked once for both.

  size_t size() const { return state_ ? state_->count : 0; }
  // Runs `check()` (which throws on damage) unless block `block` has passed
  // it before. One thread checks a block while the others that need that
  // block wait; threads that need other blocks check them meanwhile (a
  // query's first steps read many blocks of a file on every core at once).
  // A block that fails stays unchecked, so every use of it throws.
  template <typename Check>
  void ensure(size_t block, const Check& check) const {
    if (blocks_[block].load(std::memory_order_acquire) != kPassed) [[unlikely]] checkOnce(block, check);
  }
  bool passed(size_t block) const { return blocks_[block].load(std::memory_order_acquire) == kPassed; }
  // For data known to be sound without a check (built in memory), or
  // checked another way (AdjacencyFile's whole arrays). Const as ensure()
  // is: the flags are state shared by copies, not the object's value.
  void markPassed(size_t block) const { blocks_[block].store(kPassed, std::memory_order_release); }

 private:
  enum : uint8_t { kUnchecked, kChecking, kPassed };

  // Behind a pointer: atomics do not move, the files that hold these do,
  // and copies share it.
  struct State {
    explicit State(size_t n) : count(n), blocks(std::make_unique<std::atomic<uint8_t>[]>(n)) {}
    size_t count;
    std::unique_ptr<std::atomic<uint8_t>[]> blocks;
  };

  template <typename Check>
  void checkOnce(size_t block, const Check& check) const {
    std::atomic<uint8_t>& state = blocks_[block];
    for (uint8_t seen = kUnchecked; !state.compare_exchange_weak(seen, kChecking, std::memory_order_acquire);
         seen = kUnchecked) {
      if (seen == kPassed) return;
      if (seen == kChecking) state.wait(kChecking, std::memory_order_acquire);  // another thread checks it
    }
    try {
      check();
    } catch (...) {
      state.store(kUnchecked, std::memory_order_release);  // the waiting threads check it again, and throw
      state.notify_all();
      throw;
    }
    state.store(kPassed, std::memory_order_release);
    state.notify_all();
  }

  std::shared_ptr<State> state_;
  std::atomic<uint8_t>* blocks_ = nullptr;  // state_->blocks: one load fewer per use
};

}  // namespace gsparql
