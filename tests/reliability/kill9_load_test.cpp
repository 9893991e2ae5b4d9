// kill -9 at random moments of a load: afterwards the database is exactly the
// graph before the load or the graph after it, readable, and the next load
// succeeds. GSPARQL_KILL9_ITERATIONS sets the number of kills (20 by default,
// enough for CI; 1,000 for the committed run), GSPARQL_KILL9_SEED the seed.
// tests/loaders/crash_safety_test.cpp kills at each named step of a commit;
// this test kills at arbitrary moments, each time from the same starting graph,
// half of them near the end of the load.
#include <doctest/doctest.h>

#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <random>
#include <thread>

#include "gsparql/database.h"
#include "reliability/generated_graph.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;
namespace fs = std::filesystem;

namespace {

int envInt(const char* name, int fallback) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::atoi(value) : fallback;
}

// What a reader sees: every triple, and a join and an aggregate answered
// through the adjacency files rather than the dump.
struct Graph {
  std::vector<std::string> triples;
  std::string answer;
  bool operator==(const Graph&) const = default;
};

Graph graphOf(const fs::path& db) {
  Database database(db);
  database.verify();
  auto rows = database
                  .query("SELECT ?p (COUNT(*) AS ?n) WHERE { ?a ?p ?b . ?b ?q ?c } GROUP BY ?p ORDER BY ?p")
                  .rows();
  std::string answer;
  for (const auto& row : rows) answer += row[0].value_or("-") + " " + row[1].value_or("-") + "\n";
  return {sortedDump(db), answer};
}

std::vector<std::string> loadArgs(const fs::path& db, const fs::path& input) {
  return {"load", "--quiet", "--db", db.string(), input.string()};
}

}  // namespace

TEST_CASE("kill -9 at random moments of a load leaves exactly the old or the new graph, and the next load succeeds") {
  const int iterations = envInt("GSPARQL_KILL9_ITERATIONS", scaledCases(20));
  const auto seed = static_cast<uint64_t>(envInt("GSPARQL_KILL9_SEED", static_cast<int>(std::random_device{}() >> 1)));
  std::mt19937_64 rng(seed);
  TempDir dir;
  writeFile(dir / "base.nt", generatedTriples(seed, 0, 2000));
  writeFile(dir / "load.nt", generatedTriples(seed + 1, 2000, 30000));
  writeFile(dir / "next.nt", generatedTriples(seed + 2, 32000, 100));
  const auto base = dir / "base";
  Database::load(base, {(dir / "base.nt").string()});
  const Graph before = graphOf(base);

  // The reference: the same load, not killed; its duration bounds the delays.
  const auto reference = dir / "reference";
  fs::copy(base, reference, fs::copy_options::recursive);
  const auto start = std::chrono::steady_clock::now();
  auto full = runCli(loadArgs(reference, dir / "load.nt"));
  const auto loadTime = std::chrono::steady_clock::now() - start;
  REQUIRE_MESSAGE(full.exitCode == 0, full.output);
  const Graph after = graphOf(reference);
  REQUIRE(after.triples.size() == before.triples.size() + 30000);
  REQUIRE(after.answer != before.answer);
  const auto loadUs = std::chrono::duration_cast<std::chrono::microseconds>(loadTime).count();

  int oldGraphs = 0, newGraphs = 0, finished = 0;
  for (int i = 0; i < iterations; ++i) {
    // Even kills fall anywhere in the load; odd ones in its end, from 3/4 of
    // its time to 3/2 (a busy machine slows it): building and committing, where
    // a kill may also leave the new graph.
    const std::chrono::microseconds delay(i % 2 == 0 ? rng() % loadUs : loadUs * 3 / 4 + rng() % (loadUs * 3 / 4));
    CAPTURE(i);
    CAPTURE(delay.count());
    const auto db = dir / "db";
    fs::remove_all(db);
    fs::copy(base, db, fs::copy_options::recursive);

    int pid = spawnCli(loadArgs(db, dir / "load.nt"), dir / "output");
    std::this_thread::sleep_for(delay);
    ::kill(pid, SIGKILL);
    auto killed = waitFor(pid, dir / "output");
    if (killed.signal != SIGKILL) {
      REQUIRE_MESSAGE(killed.exitCode == 0, killed.output);
      ++finished;
    }

    const Graph now = graphOf(db);
    const bool isOld = now == before;
    REQUIRE((isOld || now == after));
    ++(isOld ? oldGraphs : newGraphs);

    // The next load finds no lock, no half-written generation in its way.
    auto next = runCli(loadArgs(db, dir / "next.nt"));
    REQUIRE_MESSAGE(next.exitCode == 0, next.output);
    CHECK(Database(db).statistics().triples == now.triples.size() + 100);
  }
  MESSAGE("seed ", seed, ": ", iterations, " kills of a load that took ", loadUs / 1000, " ms: ", oldGraphs,
          " left the old graph, ", newGraphs, " the new one (", finished, " of them after the load had ended)");
}
