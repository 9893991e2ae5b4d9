// The pool of executors (engine/placement/executor_pool.h) with executors that record
// how many calls run at once: calls beyond the pool wait, a thread's nested
// calls reuse its executor, a cursor holds its executor until destroyed.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "engine/bgp/plan.h"
#include "engine/placement/executor_pool.h"
#include "gsparql/database.h"
#include "storage/graph_store.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::engine;
using gsparql::test::TempDir;
using gsparql::test::writeFile;

namespace {

struct Tally {
  std::atomic<int> running{0}, most{0}, calls{0}, preloads{0}, shared{0};
};

// Each call takes a few milliseconds and returns the executor's number as its one row.
class RecordingExecutor : public Executor {
 public:
  RecordingExecutor(Tally& tally, uint32_t number) : tally_(tally), number_(number) {}
  std::string name() const override { return "recording"; }
  IdColumns execute(const BgpPlan&, const BoundBgp&, const GraphStore&, const BgpCall&, ExecutionProfile&) override {
    const int now = ++tally_.running;
    for (int most = tally_.most; now > most && !tally_.most.compare_exchange_weak(most, now);) {
    }
    busy();
    ++tally_.calls;
    --tally_.running;
    IdColumns table(1);
    table.column(0).push_back(number_);
    table.setRows(1);
    return table;
  }

  void preload(const GraphStore&) override {
    busy();
    ++tally_.preloads;
  }

 private:
  // A few milliseconds' work, counting the times another call shared it.
  void busy() {
    if (++inside_ > 1) ++tally_.shared;
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
    --inside_;
  }

  Tally& tally_;
  uint32_t number_;
  std::atomic<int> inside_{0};
};

std::unique_ptr<Executor> poolOf(Tally& tally, uint32_t size) {
  std::vector<std::unique_ptr<Executor>> executors;
  for (uint32_t i = 0; i < size; ++i) executors.push_back(std::make_unique<RecordingExecutor>(tally, i));
  return makeExecutorPool(std::move(executors));
}

// Which executor ran a call: the number in its one row.
uint32_t ranOn(Executor& executor, const GraphStore& store) {
  ExecutionProfile profile;
  return executor.execute({}, {}, store, {}, profile).at(0, 0);
}

// The calls never read it, but they take one.
const GraphStore& noStore() {
  static const TempDir dir;
  static const GraphStore store = [] {
    writeFile(dir / "data.nt", "<http://e/a> <http://e/p> <http://e/b> .\n");
    Database::load(dir / "db", {(dir / "data.nt").string()});
    return GraphStore(dir / "db");
  }();
  return store;
}

}  // namespace

TEST_CASE("a pool of executors runs at most one call per executor at once, and no fewer when callers wait") {
  Tally tally;
  auto pool = poolOf(tally, 3);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 20; ++i) ranOn(*pool, noStore());
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(tally.calls == 160);
  CHECK(tally.most == 3);
}

TEST_CASE("a thread's nested calls reuse its executor, and a cursor holds its executor until it is destroyed") {
  Tally tally;
  auto pool = poolOf(tally, 1);
  ExecutionProfile profile;
  auto cursor = pool->open({}, {}, noStore(), {}, profile);
  // A second call of the thread that holds the only executor does not wait for itself.
  CHECK(ranOn(*pool, noStore()) == 0);
  std::atomic<bool> otherRan{false};
  std::thread other([&] {
    ranOn(*pool, noStore());
    otherRan = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK_FALSE(otherRan.load());  // the cursor still holds the executor
  REQUIRE(cursor->next());
  cursor.reset();
  other.join();
  CHECK(otherRan.load());
}

TEST_CASE("preloading takes each executor in turn as the queries running on the pool leave it") {
  // A database opened while another's queries run on the same executors
  // (api/shared_gpu_executors.h) preloads its snapshot.
  Tally tally;
  auto pool = poolOf(tally, 2);
  std::atomic<bool> done{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      while (!done) ranOn(*pool, noStore());
    });
  }
  for (int i = 0; i < 10; ++i) pool->preload(noStore());
  done = true;
  for (auto& thread : threads) thread.join();
  CHECK(tally.preloads == 20);
  CHECK(tally.calls > 0);
  CHECK(tally.shared == 0);
}
