// Readers and writers of one database directory: a reader keeps the
// generation it opened until it is done, whatever loads commit meanwhile and
// in whichever process; a second writer is refused; old generations go once
// no reader holds them.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gsparql/database.h"
#include "storage/generations.h"
#include "storage/graph_store.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

std::vector<std::string> generationFolders(const std::filesystem::path& db) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(db)) {
    std::string name = entry.path().filename().string();
    if (name.starts_with("gen-")) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Loads one more triple, <e:s{n}> <e:p> <e:o{n}>, from a file of its own.
void loadTriple(const std::filesystem::path& db, int n, const TempDir& scratch) {
  auto file = scratch / ("t" + std::to_string(n) + ".nt");
  writeFile(file, "<e:s" + std::to_string(n) + "> <e:p> <e:o" + std::to_string(n) + "> .\n");
  Database::load(db, {file.string()});
}

constexpr const char* kAll = "SELECT * WHERE { ?s <e:p> ?o }";

}  // namespace

TEST_CASE("a reader keeps its generation while loads replace it, the next free load removes it") {
  TempDir dir;
  const auto db = dir / "db";
  loadTriple(db, 0, dir);
  {
    Database reader(db);
    CHECK(reader.isLatest());
    loadTriple(db, 1, dir);
    loadTriple(db, 2, dir);
    CHECK_FALSE(reader.isLatest());
    // Generation 1 is still held, so neither commit could remove it.
    CHECK(generationFolders(db) == std::vector<std::string>{"gen-000001", "gen-000003"});
    CHECK(reader.query(kAll).rowCount() == 1);
    CHECK(reader.statistics().generation == 1);
    reader.verify();
    CHECK(Database(db).query(kAll).rowCount() == 3);
  }
  loadTriple(db, 3, dir);
  CHECK(generationFolders(db) == std::vector<std::string>{"gen-000004"});
}

TEST_CASE("CURRENT naming a folder that does not exist is corruption, not a reason to wait") {
  TempDir dir;
  const auto db = dir / "db";
  loadTriple(db, 0, dir);
  writeFile(db / "CURRENT", "gen-000099\n");
  CHECK_THROWS_WITH_AS(GraphStore{db}, doctest::Contains("CURRENT names 'gen-000099', which is not a generation folder"),
                       StorageError);
}

TEST_CASE("readers in this and other processes never fail while small loads commit back to back") {
  TempDir dir;
  const auto db = dir / "db";
  loadTriple(db, 0, dir);
  const int kLoads = scaledCases(40);
  std::atomic<bool> loading{true};
  std::atomic<int> queries{0};
  std::vector<std::string> failures;  // written by one reader at a time under the mutex
  std::mutex failuresMutex;
  auto fail = [&](const std::string& what) {
    std::lock_guard lock(failuresMutex);
    failures.push_back(what);
  };

  // In-process readers open the store and read all of it as fast as they can:
  // the window between reading CURRENT and opening the files is hit often.
  auto inProcessReader = [&] {
    while (loading.load()) {
      try {
        Database reader(db);
        auto rows = reader.query(kAll).rowCount();
        if (rows < 1 || rows > kLoads + 1) fail("in process: " + std::to_string(rows) + " rows");
        reader.verify();
        ++queries;
      } catch (const std::exception& e) {
        fail(std::string("in process: ") + e.what());
      }
    }
  };
  // Readers in other processes: the CLI, as a person or a script would run it.
  auto cliReader = [&] {
    while (loading.load()) {
      auto result = runCli({"query", "--db", db.string(), "--backend", "cpu", "--format", "tsv", kAll});
      if (result.exitCode != 0) fail("gsparql query: " + result.output);
      ++queries;
    }
  };
  std::vector<std::thread> readers;
  for (int i = 0; i < 2; ++i) readers.emplace_back(inProcessReader);
  for (int i = 0; i < 2; ++i) readers.emplace_back(cliReader);
  try {
    for (int n = 1; n <= kLoads; ++n) loadTriple(db, n, dir);
  } catch (const std::exception& e) {
    fail(std::string("load: ") + e.what());
  }
  loading.store(false);
  for (auto& reader : readers) reader.join();

  for (const auto& failure : failures) FAIL_CHECK(failure);
  CHECK(queries.load() > kLoads);
  CHECK(Database(db).query(kAll).rowCount() == kLoads + 1);
  // Readers may have held the last generations; one more load clears them.
  loadTriple(db, kLoads + 1, dir);
  CHECK(generationFolders(db).size() == 1);
}

TEST_CASE("a second writer waits for the first, in another process as in this one, up to its patience") {
  TempDir dir;
  const auto db = dir / "db";
  loadTriple(db, 0, dir);
  writeFile(dir / "more.nt", "<e:x> <e:p> <e:y> .\n");
  auto first = std::make_unique<GenerationWriter>(db);
  // Past its patience (an update's timeout), a writer gives up, saying how long it waited.
  UpdateOptions patient;
  patient.query.timeout = std::chrono::milliseconds(200);
  CHECK_THROWS_WITH_AS(Database::update(db, "INSERT DATA { <e:u> <e:p> <e:v> }", patient),
                       doctest::Contains("is being written by another writer (a load or an update); waited 0.2 s for it to finish"),
                       StorageError);
  CHECK_THROWS_WITH_AS(GenerationWriter(db, std::chrono::milliseconds(0)), doctest::Contains("waited 0 s"), StorageError);
  // Within it, the second commits once the first is done (which gives up without committing).
  const int child = spawnCli({"load", "--quiet", "--db", db.string(), (dir / "more.nt").string()}, dir / "child");
  std::thread inProcess([&] { Database::update(db, "INSERT DATA { <e:u> <e:p> <e:v> }"); });
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  CHECK(Database(db).query(kAll).rowCount() == 1);  // both waiting
  first.reset();
  inProcess.join();
  const ProcessResult loaded = waitFor(child, dir / "child");
  CHECK_MESSAGE(loaded.exitCode == 0, loaded.output);
  CHECK(Database(db).query(kAll).rowCount() == 3);
}

TEST_CASE("two loads started together both commit, the second after the first") {
  TempDir dir;
  const auto db = dir / "db";
  loadTriple(db, 0, dir);
  const std::string sf1 = dataFile("watdiv/sf1.nt.zst").string();
  writeFile(dir / "one.nt", "<e:x> <e:p> <e:y> .\n");
  int firstPid = spawnCli({"load", "--quiet", "--db", db.string(), sf1}, dir / "first");
  int secondPid = spawnCli({"load", "--quiet", "--db", db.string(), (dir / "one.nt").string()}, dir / "second");
  auto first = waitFor(firstPid, dir / "first");
  auto second = waitFor(secondPid, dir / "second");
  for (const auto* result : {&first, &second}) {
    CAPTURE(result->output);
    CHECK(result->signal == 0);
    CHECK(result->exitCode == 0);
  }
  Database after(db);
  after.verify();
  CHECK(after.statistics().triples == 1 + 106012 + 1);
}
