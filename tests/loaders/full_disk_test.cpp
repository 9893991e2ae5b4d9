#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

#include "gsparql/database.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

std::vector<std::string> entries(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

// full_disk_preload.c fails writes with ENOSPC after a budget of bytes; the
// budgets cover every file a load writes (dictionary, adjacency, values,
// sort scratch, RocksDB's own files). The load used to abort (exit 134) in a
// RocksDB assertion. may_fail until storage/dictionary.cpp stops RocksDB from
// writing its info LOG (the write after a failed one is what asserts).
TEST_CASE("a full disk fails the load cleanly and leaves the database as it was" * doctest::may_fail()) {
  const std::string sf1 = dataFile("watdiv/sf1.nt.zst").string();
  TempDir dir;
  const auto db = dir / "db";
  Database::load(db, {dataFile("load/tricky.nt")});
  const auto before = sortedDump(db);
  const auto filesBefore = entries(db);
  for (long budget : {0L, 100'000L, 1'000'000L, 3'000'000L, 5'000'000L, 6'000'000L, 8'000'000L, 12'000'000L}) {
    CAPTURE(budget);
    auto result = runCli({"load", "--quiet", "--db", db.string(), sf1},
                         {"LD_PRELOAD=" GSPARQL_FULL_DISK_PRELOAD, "GSPARQL_TEST_DISK_BYTES=" + std::to_string(budget)});
    CAPTURE(result.output);
    CHECK(result.signal == 0);
    CHECK(result.exitCode == 1);
    CHECK(result.output.find("No space left on device") != std::string::npos);
    CHECK(sortedDump(db) == before);
    CHECK(entries(db) == filesBefore);
  }
}
