// Readers and writers under stress, beyond tests/storage/generations_test.cpp
// (readers during back-to-back loads, one race of two loads): here readers
// check that every snapshot is one committed state and that states never go
// back, while loads are killed -9 between commits, two writers (one in this
// process, one a CLI child) wait for each other until every load is in, and
// updates from several processes at once all commit.
#include <doctest/doctest.h>

#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <random>
#include <thread>

#include "gsparql/database.h"
#include "reliability/generated_graph.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;
namespace fs = std::filesystem;

namespace {

constexpr int kBatch = 1000;  // triples of one load, besides its marker

// Batch n: kBatch generated triples and one marker, <batch{n}> <loaded> "n".
fs::path writeBatch(const TempDir& dir, int n) {
  auto file = dir / ("batch" + std::to_string(n) + ".nt");
  writeFile(file, generatedTriples(n, n * kBatch, kBatch) + "<http://r.example/batch" + std::to_string(n) +
                      "> <http://r.example/loaded> \"" + std::to_string(n) + "\" .\n");
  return file;
}

constexpr const char* kMarkers = "SELECT ?b WHERE { ?b <http://r.example/loaded> ?n }";

// Readers looping until `stop`: each snapshot must hold whole batches only
// (its size agrees with its markers) and no fewer than the reader saw before.
class Readers {
 public:
  Readers(fs::path db, int inProcess, int cli) : db_(std::move(db)) {
    for (int i = 0; i < inProcess; ++i) threads_.emplace_back([this] { loopInProcess(); });
    for (int i = 0; i < cli; ++i) threads_.emplace_back([this] { loopCli(); });
  }
  // Stops the readers; returns the queries answered.
  int stop() {
    stop_ = true;
    for (auto& t : threads_) t.join();
    for (const auto& failure : failures_) FAIL_CHECK(failure);
    return queries_;
  }

 private:
  void fail(const std::string& what) {
    std::lock_guard lock(mutex_);
    failures_.push_back(what);
  }
  void loopInProcess() {
    size_t seen = 0;
    while (!stop_) {
      try {
        Database snapshot(db_);
        size_t batches = snapshot.query(kMarkers).rowCount();
        size_t triples = snapshot.statistics().triples;
        if (triples != batches * (kBatch + 1)) {
          fail(std::to_string(triples) + " triples with " + std::to_string(batches) + " batches");
        }
        if (batches < seen) fail("went back from " + std::to_string(seen) + " to " + std::to_string(batches));
        seen = batches;
        ++queries_;
      } catch (const std::exception& e) {
        fail(std::string("in process: ") + e.what());
      }
    }
  }
  void loopCli() {
    size_t seen = 0;
    while (!stop_) {
      auto result = runCli({"query", "--db", db_.string(), "--backend", "cpu", "--format", "tsv", kMarkers});
      if (result.exitCode != 0) {
        fail("gsparql query: " + result.output);
        continue;
      }
      size_t batches = std::count(result.output.begin(), result.output.end(), '\n') - 1;  // less the header
      if (batches < seen) fail("CLI went back from " + std::to_string(seen) + " to " + std::to_string(batches));
      seen = batches;
      ++queries_;
    }
  }

  fs::path db_;
  std::atomic<bool> stop_{false};
  std::atomic<int> queries_{0};
  std::mutex mutex_;
  std::vector<std::string> failures_;
  std::vector<std::thread> threads_;
};

}  // namespace

TEST_CASE("readers looping through the API and the CLI see whole committed loads, in order, while loads are killed -9") {
  TempDir dir;
  const auto db = dir / "db";
  Database::load(db, {writeBatch(dir, 0).string()});
  std::mt19937 rng(std::random_device{}());
  Readers readers(db, 2, 1);
  size_t committed = 1, killed = 0;
  std::chrono::microseconds loadTime{0};  // of the last load not killed: the range of the delays
  for (int n = 1; n <= 12; ++n) {
    auto file = writeBatch(dir, n);
    const auto start = std::chrono::steady_clock::now();
    int pid = spawnCli({"load", "--quiet", "--db", db.string(), file.string()}, dir / "output");
    const bool kill = n % 2 == 0;
    if (kill) {
      std::this_thread::sleep_for(std::chrono::microseconds(rng() % loadTime.count()));
      ::kill(pid, SIGKILL);
    }
    auto result = waitFor(pid, dir / "output");
    if (!kill) loadTime = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start);
    size_t now = Database(db).query(kMarkers).rowCount();
    if (result.signal == SIGKILL) {
      ++killed;
      CHECK((now == committed || now == committed + 1));
    } else {
      REQUIRE_MESSAGE(result.exitCode == 0, result.output);
      CHECK(now == committed + 1);
    }
    committed = now;
  }
  int queries = readers.stop();
  CHECK(queries > 12);
  Database(db).verify();
  MESSAGE(queries, " queries during 12 loads, ", killed, " killed, ", committed, " batches committed");
}

TEST_CASE("two writers, in this process and a CLI child, wait for each other: every load commits once, none is lost") {
  TempDir dir;
  const auto db = dir / "db";
  Database::load(db, {writeBatch(dir, 0).string()});
  const int kPerWriter = std::max(4, scaledCases(8));  // 4 under ASan, where each load of the CLI child is slow
  std::vector<fs::path> files;
  for (int n = 1; n <= 2 * kPerWriter; ++n) files.push_back(writeBatch(dir, n));
  Readers readers(db, 1, 0);

  std::string inProcessError;  // doctest's REQUIRE must not throw in a thread
  std::thread inProcess([&] {
    try {
      for (int i = 0; i < kPerWriter; ++i) Database::load(db, {files[2 * i].string()});
    } catch (const StorageError& e) {
      inProcessError = e.what();
    }
  });
  for (int i = 0; i < kPerWriter; ++i) {
    auto result = runCli({"load", "--quiet", "--db", db.string(), files[2 * i + 1].string()});
    REQUIRE_MESSAGE(result.exitCode == 0, result.output);
  }
  inProcess.join();
  readers.stop();
  REQUIRE_MESSAGE(inProcessError.empty(), inProcessError);

  Database after(db);
  after.verify();
  CHECK(after.query(kMarkers).rowCount() == 2 * kPerWriter + 1);
  CHECK(after.statistics().triples == (2 * kPerWriter + 1) * (kBatch + 1));
}

TEST_CASE("updates from several processes at once all commit: each waits for the writer before it") {
  TempDir dir;
  const auto db = dir / "db";
  Database::load(db, {writeBatch(dir, 0).string()});
  constexpr int kWriters = 4;
  std::vector<int> pids;
  for (int n = 0; n < kWriters; ++n) {
    const std::string marker = "<http://r.example/update" + std::to_string(n) + "> <http://r.example/loaded> " + std::to_string(n);
    // A DELETE/INSERT with a pattern reads the generation it changes: it runs under the write lock.
    pids.push_back(spawnCli({"update", "--db", db.string(), "INSERT { " + marker + " } WHERE { ?s ?p ?o } ;\n"
                                                            "INSERT DATA { " + marker + " }"},
                            dir / ("update" + std::to_string(n))));
  }
  for (int n = 0; n < kWriters; ++n) {
    const ProcessResult result = waitFor(pids[n], dir / ("update" + std::to_string(n)));
    CHECK_MESSAGE(result.exitCode == 0, result.output);
  }
  Database after(db);
  after.verify();
  CHECK(after.query(kMarkers).rowCount() == kWriters + 1);
}
