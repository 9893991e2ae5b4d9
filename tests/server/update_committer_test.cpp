// The server's group commit (server/update_committer.h): updates from many
// threads, committed in batches, each with its own summary or error.
#include <doctest/doctest.h>

#include <atomic>
#include <mutex>
#include <optional>
#include <thread>

#include "gsparql/update_batch.h"
#include "server/update_committer.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

uint64_t count(const Database& db, const std::string& pattern) {
  return countOf(db.query("SELECT (COUNT(*) AS ?n) { " + pattern + " }"));
}

}  // namespace

TEST_CASE("updates from many threads through the committer: all applied, each caller its own answer") {
  TempDir work;
  writeFile(work / "base.nt", "<http://e/a> <http://e/p> <http://e/b> .\n");
  Database::load(work / "db", {(work / "base.nt").string()});
  const Database reader(work / "db");
  std::mutex publishedMutex;
  std::shared_ptr<const Database> published;
  int publications = 0;
  server::UpdateCommitter committer(
      work / "db", {},
      [&](std::shared_ptr<const Database> snapshot) {
        std::lock_guard lock(publishedMutex);
        published = std::move(snapshot);
        ++publications;
      },
      std::chrono::seconds(60));

  constexpr int kThreads = 8;
  const int updatesEach = scaledCases(20);
  std::atomic<int> applied{0}, refused{0}, wrongCounts{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < updatesEach; ++i) {
        const std::string subject = "<http://e/t" + std::to_string(t) + "_" + std::to_string(i) + ">";
        // Two triples a request; every fifth one has a syntax error after them.
        const bool broken = i % 5 == 4;
        const std::string text = "INSERT DATA { " + subject + " <http://e/first> " + std::to_string(i) + " ; <http://e/second> " +
                                 std::to_string(t) + " " + (broken ? "" : "}");
        try {
          const UpdateSummary summary = committer.commit(text, {});
          ++applied;
          if (summary.triplesAfter != summary.triplesBefore + 2 || !summary.changed) ++wrongCounts;
        } catch (const QueryError&) {
          if (broken) ++refused;
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();

  const int broken = kThreads * (updatesEach / 5);
  CHECK(refused == broken);
  CHECK(applied == kThreads * updatesEach - broken);
  CHECK(wrongCounts == 0);
  const Database after(work / "db");
  CHECK(count(after, "?s <http://e/first> ?x ; <http://e/second> ?y") == static_cast<uint64_t>(applied.load()));
  CHECK(after.statistics().triples == 1 + 2 * static_cast<uint64_t>(applied.load()));
  CHECK(after.statistics().deltaFiles <= static_cast<uint32_t>(applied.load()));  // several requests a file, when they met
  CHECK(count(reader, "?s ?p ?o") == 1);  // a reader's snapshot does not change
  std::lock_guard lock(publishedMutex);
  REQUIRE(published);
  CHECK(published->isLatest());
  CHECK(published->statistics().triples == after.statistics().triples);
  CHECK(publications >= 1);
}

TEST_CASE("a committer's request that cannot apply leaves no trace, and the next ones apply") {
  TempDir work;
  writeFile(work / "base.nt", "<http://e/a> <http://e/p> <http://e/b> .\n");
  Database::load(work / "db", {(work / "base.nt").string()});
  server::UpdateCommitter committer(work / "db", {}, [](std::shared_ptr<const Database>) {}, std::chrono::seconds(60));
  UpdateOptions noLoad;
  noLoad.allowLoad = false;
  CHECK_THROWS_AS(committer.commit("INSERT DATA { <http://e/x> <http://e/p> 1 } ; LOAD <file:///etc/hostname>", noLoad),
                  QueryError);
  CHECK(committer.commit("INSERT DATA { <http://e/y> <http://e/p> 2 }", noLoad).triplesAfter == 2);
  CHECK(count(Database(work / "db"), "?s <http://e/p> ?o") == 2);
}

TEST_CASE("a committer's request that waits past its timeout fails without trace, and the one before it applies") {
  TempDir work;
  writeFile(work / "base.nt", "<http://e/a> <http://e/p> <http://e/b> .\n");
  Database::load(work / "db", {(work / "base.nt").string()});
  server::UpdateCommitter committer(work / "db", {}, [](std::shared_ptr<const Database>) {}, std::chrono::seconds(60));
  std::optional<UpdateBatch> writer(std::in_place, work / "db");  // another writer holds the directory
  std::thread patient([&] { committer.commit("INSERT DATA { <http://e/x> <http://e/p> 1 }", {}); });
  UpdateOptions hurried;
  hurried.query.timeout = std::chrono::milliseconds(50);
  // Behind the patient one (UpdateWaitExpired), or first and waiting for the writer itself (StorageError).
  CHECK_THROWS_AS(committer.commit("INSERT DATA { <http://e/y> <http://e/p> 2 }", hurried), Error);
  writer.reset();
  patient.join();
  const Database after(work / "db");
  CHECK(count(after, "<http://e/x> <http://e/p> 1") == 1);
  CHECK(count(after, "<http://e/y> <http://e/p> 2") == 0);
}
