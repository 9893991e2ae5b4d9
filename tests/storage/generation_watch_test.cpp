// The watch that spares a server's queries from reading CURRENT: every
// change to a database folder is counted by the time changes() returns, and
// a store's latest check follows loads and delta files made by other writers.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "gsparql/database.h"
#include "storage/generation_watch.h"
#include "storage/graph_store.h"
#include "storage/latest_check.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

TEST_CASE("a generation watch counts files made, renamed and removed in the folder and its subfolders") {
  TempDir work;
  std::filesystem::create_directories(work / "gen-000001");
  GenerationWatch watch(work.path());
  const uint64_t start = watch.changes();
  CHECK(watch.changes() == start);  // nothing happened

  writeFile(work / "gen-000001" / "delta-000001.tmp", "x");
  const uint64_t afterWrite = watch.changes();
  CHECK(afterWrite > start);
  CHECK(watch.changes() == afterWrite);

  std::filesystem::rename(work / "gen-000001" / "delta-000001.tmp", work / "gen-000001" / "delta-000001");
  const uint64_t afterRename = watch.changes();
  CHECK(afterRename > afterWrite);

  // A folder made after the watch is watched too.
  std::filesystem::create_directories(work / "gen-000002");
  const uint64_t afterFolder = watch.changes();
  CHECK(afterFolder > afterRename);
  writeFile(work / "gen-000002" / "CURRENT.tmp", "gen-000002\n");
  const uint64_t inNewFolder = watch.changes();
  CHECK(inNewFolder > afterFolder);

  std::filesystem::remove(work / "gen-000002" / "CURRENT.tmp");
  CHECK(watch.changes() > inNewFolder);
}

TEST_CASE("a generation watch whose folder is gone counts every call") {
  TempDir work;
  std::filesystem::create_directories(work / "db");
  GenerationWatch watch(work / "db");
  std::filesystem::rename(work / "db", work / "moved");
  const uint64_t first = watch.changes();
  CHECK(watch.changes() > first);
  CHECK(watch.changes() > first + 1);
}

TEST_CASE("a store's latest check, asked again and again, sees loads and updates of other writers") {
  TempDir work;
  const auto db = work / "db";
  writeFile(work / "a.nt", "<e:a> <e:p> <e:b> .\n");
  Database::load(db, {(work / "a.nt").string()});

  GraphStore store(db);
  LatestCheck check(store);
  for (int i = 0; i < 3; ++i) CHECK(check.isLatest());

  SUBCASE("a delta file") {
    Database::update(db, "INSERT DATA { <e:b> <e:p> <e:c> }");
  }
  SUBCASE("a new generation") {
    writeFile(work / "b.nt", "<e:b> <e:p> <e:c> .\n");
    Database::load(db, {(work / "b.nt").string()});
  }
  CHECK_FALSE(check.isLatest());
  CHECK_FALSE(check.isLatest());  // and stays older

  GraphStore newest(db);
  LatestCheck again(newest);
  CHECK(again.isLatest());
  CHECK(again.isLatest());
}

TEST_CASE("the snapshots of one folder share its watch while one holds it") {
  TempDir work;
  std::filesystem::create_directories(work / "db" / "gen-000001");
  std::filesystem::create_directories(work / "other");
  const auto first = GenerationWatch::shared(work / "db");
  CHECK(GenerationWatch::shared(work / "db" / "gen-000001" / "..") == first);  // however the path is spelled
  CHECK(GenerationWatch::shared(work / "other") != first);
  const uint64_t before = first->changes();
  writeFile(work / "db" / "gen-000001" / "delta-000001", "x");
  CHECK(GenerationWatch::shared(work / "db")->changes() > before);
}
