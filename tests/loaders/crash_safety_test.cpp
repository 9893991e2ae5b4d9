#include <doctest/doctest.h>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "gsparql/database.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

std::vector<std::string> loadArgs(const std::filesystem::path& db, const std::string& input) {
  return {"load", "--quiet", "--db", db.string(), input};
}

}  // namespace

TEST_CASE("a load killed at any step of building or committing leaves a readable database") {
  const std::string sf1 = dataFile("watdiv/sf1.nt.zst").string();
  TempDir dir;
  const auto db = dir / "db";
  Database::load(db, {dataFile("load/tricky.nt")});
  const auto before = sortedDump(db);

  // Points before the CURRENT switch must leave the old graph, the last one the new.
  for (const char* point : {"after-parse", "after-build", "before-rename", "before-switch",
                            "before-current-rename"}) {
    CAPTURE(point);
    auto result = runCli(loadArgs(db, sf1), {std::string("GSPARQL_CRASH_AT=") + point});
    REQUIRE(result.signal == SIGKILL);
    CHECK(sortedDump(db) == before);
    Database(db).verify();
  }
  auto result = runCli(loadArgs(db, sf1), {"GSPARQL_CRASH_AT=before-cleanup"});
  REQUIRE(result.signal == SIGKILL);
  CHECK(Database(db).statistics().triples == 106012 + before.size());

  // The next load clears what the crashes left behind.
  Database::load(db, {dataFile("load/tricky.ttl")});
  size_t generations = 0;
  for (const auto& e : std::filesystem::directory_iterator(db)) {
    generations += e.path().filename().string().starts_with("gen-");
  }
  CHECK(generations == 1);
}

TEST_CASE("kill -9 at random moments leaves either the old or the new graph, never a broken one") {
  const std::string sf1 = dataFile("watdiv/sf1.nt.zst").string();
  TempDir dir;
  const auto db = dir / "db";
  Database::load(db, {dataFile("load/tricky.nt")});
  const auto oldSize = sortedDump(db).size();
  const size_t newSize = oldSize + 106012;
  int oldSeen = 0;
  for (int delayMs : {0, 5, 20, 40, 60, 80, 100, 130, 160, 200, 260}) {
    CAPTURE(delayMs);
    int pid = spawnCli(loadArgs(db, sf1), dir / "output");
    std::this_thread::sleep_for(std::chrono::milliseconds(delayMs));
    ::kill(pid, SIGKILL);
    waitFor(pid, dir / "output");
    Database current(db);
    current.verify();
    auto size = sortedDump(db).size();
    CHECK((size == oldSize || size == newSize));
    if (size == newSize) break;  // committed: later kills would test the new graph
    ++oldSeen;
  }
  CHECK(oldSeen > 0);
}
