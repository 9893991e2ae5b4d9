#include <doctest/doctest.h>

#include <sys/resource.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <filesystem>

#include "gsparql/database.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

// Runs the CLI with RLIMIT_FSIZE set to `bytes` and SIGXFSZ at its default
// action (the child inherits both; the shell that started the tests may
// ignore the signal, which would hide what the CLI does about it).
ProcessResult runWithFileSizeLimit(const std::vector<std::string>& args, rlim_t bytes) {
  rlimit saved{};
  ::getrlimit(RLIMIT_FSIZE, &saved);
  rlimit limited = saved;
  limited.rlim_cur = bytes;
  ::setrlimit(RLIMIT_FSIZE, &limited);
  auto previousAction = std::signal(SIGXFSZ, SIG_DFL);
  auto result = runCli(args);
  std::signal(SIGXFSZ, previousAction);
  ::setrlimit(RLIMIT_FSIZE, &saved);
  return result;
}

// The hook comes before the sanitizer runtime in an ASan build, which ASan
// refuses unless told not to check.
std::vector<std::string> fullDiskEnvironment(long budget) {
  const char* asan = std::getenv("ASAN_OPTIONS");
  return {"LD_PRELOAD=" GSPARQL_FULL_DISK_PRELOAD, "GSPARQL_TEST_DISK_BYTES=" + std::to_string(budget),
          "ASAN_OPTIONS=" + std::string(asan ? asan + std::string(":") : "") + "verify_asan_link_order=0"};
}

}  // namespace

// full_disk_preload.c fails writes with ENOSPC after a budget of bytes; the
// budgets cover every file a load writes (dictionary, adjacency, values,
// sort scratch, RocksDB's own files). The load used to abort (exit 134) at
// 6,000,000 bytes: RocksDB wrote its info LOG after a failed write, which
// trips an assertion (storage/dictionary.cpp now discards those messages).
TEST_CASE("a full disk fails the load cleanly and leaves the database as it was") {
  const std::string sf1 = dataFile("watdiv/sf1.nt.zst").string();
  TempDir dir;
  const auto db = dir / "db";
  Database::load(db, {dataFile("load/tricky.nt")});
  const auto before = sortedDump(db);
  const auto filesBefore = directoryEntries(db);
  for (long budget : {0L, 100'000L, 1'000'000L, 3'000'000L, 5'000'000L, 6'000'000L, 8'000'000L, 12'000'000L}) {
    CAPTURE(budget);
    auto result = runCli({"load", "--quiet", "--db", db.string(), sf1}, fullDiskEnvironment(budget));
    CAPTURE(result.output);
    CHECK(result.signal == 0);
    CHECK(result.exitCode == 1);
    CHECK(result.output.find("No space left on device") != std::string::npos);
    CHECK(sortedDump(db) == before);
    CHECK(directoryEntries(db) == filesBefore);
  }
}

TEST_CASE("a file-size limit fails the load with its reason instead of killing it with SIGXFSZ") {
  const std::string sf1 = dataFile("watdiv/sf1.nt.zst").string();
  TempDir dir;
  const auto db = dir / "db";
  Database::load(db, {dataFile("load/tricky.nt")});
  const auto before = sortedDump(db);
  for (rlim_t limit : {200'000, 1'000'000, 3'000'000}) {
    CAPTURE(limit);
    auto result = runWithFileSizeLimit({"load", "--quiet", "--db", db.string(), sf1}, limit);
    CAPTURE(result.output);
    CHECK(result.signal == 0);
    CHECK(result.exitCode == 1);
    CHECK(result.output.find("File too large") != std::string::npos);
    CHECK(sortedDump(db) == before);
  }
}
