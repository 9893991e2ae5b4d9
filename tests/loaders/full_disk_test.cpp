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

// Bytes of the files a load of `input` leaves in a fresh database: less than
// it writes (sort scratch and RocksDB's own files come and go).
uint64_t bytesLeftByLoad(const std::string& input) {
  TempDir dir;
  Database::load(dir / "db", {input});
  uint64_t bytes = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir / "db")) {
    if (e.is_regular_file()) bytes += e.file_size();
  }
  return bytes;
}

}  // namespace

// full_disk_preload.c fails writes with ENOSPC after a budget of bytes; the
// budgets, fractions of what the load leaves on disk, cover every file a load
// writes (dictionary, adjacency, values, sort scratch, RocksDB's own files).
// The load used to abort (exit 134) with a budget of about half: RocksDB wrote
// its info LOG after a failed write, which trips an assertion
// (storage/dictionary.cpp now discards those messages).
TEST_CASE("a full disk fails the load cleanly and leaves the database as it was") {
  const std::string sf1 = dataFile("watdiv/sf1.nt.zst").string();
  const auto needed = static_cast<long>(bytesLeftByLoad(sf1));
  TempDir dir;
  const auto db = dir / "db";
  Database::load(db, {dataFile("load/tricky.nt")});
  const auto before = sortedDump(db);
  const auto filesBefore = directoryEntries(db);
  for (long percent : {0L, 1L, 5L, 15L, 30L, 45L, 55L, 70L, 90L, 99L}) {
    const long budget = needed / 100 * percent;
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
  for (rlim_t limit : {200'000, 600'000, 1'400'000}) {
    CAPTURE(limit);
    auto result = runWithFileSizeLimit({"load", "--quiet", "--db", db.string(), sf1}, limit);
    CAPTURE(result.output);
    CHECK(result.signal == 0);
    CHECK(result.exitCode == 1);
    CHECK(result.output.find("File too large") != std::string::npos);
    CHECK(sortedDump(db) == before);
  }
}
