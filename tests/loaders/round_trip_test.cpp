#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <regex>
#include <set>

#include "gsparql/database.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

std::vector<std::string> expectedTricky() {
  auto lines = readLines(dataFile("load/tricky.expected.nt"));
  std::sort(lines.begin(), lines.end());
  return lines;
}

}  // namespace

TEST_CASE("load then dump gives the sorted, de-duplicated input in canonical N-Triples") {
  const char* inputs[] = {"tricky.nt", "tricky.ttl", "tricky.nt.gz", "tricky.nt.bz2", "tricky.nt.xz", "tricky.nt.zst"};
  for (const char* input : inputs) {
    CAPTURE(input);
    TempDir dir;
    LoadSummary summary = Database::load(dir.path(), {dataFile(std::string("load/") + input)});
    CHECK(sortedDump(dir.path()) == expectedTricky());
    CHECK(summary.uniqueTriples == expectedTricky().size());
  }
}

TEST_CASE("N-Quads keep their graphs: the dump is the input's quads, in canonical form") {
  TempDir dir;
  Database::load(dir.path(), {dataFile("load/tricky.nq")});
  const std::vector<std::string> quads = sortedDump(dir.path());
  // Without their graphs, the quads are the triples of tricky.nt.
  std::set<std::string> triples;
  size_t named = 0;
  for (const std::string& quad : quads) {
    const size_t graph = quad.rfind(" <http://example.org/graph");
    named += graph != std::string::npos;
    triples.insert(graph == std::string::npos ? quad : quad.substr(0, graph) + " .");
  }
  const std::vector<std::string> expected = expectedTricky();
  CHECK(std::vector<std::string>(triples.begin(), triples.end()) == expected);
  CHECK(named == 11);
  CHECK(Database(dir.path()).statistics().namedGraphs == 3);
}

TEST_CASE("TriG keeps its graphs: default-graph blocks, GRAPH, blank-node graph names") {
  // graphs.expected.nq agrees with raptor's rapper (raptor2-utils), but for
  // the GRAPH keyword and blank-node graph names, which raptor 2.0.15 does not read.
  TempDir dir;
  Database::load(dir / "db", {dataFile("load/graphs.trig")});
  std::vector<std::string> quads;
  for (const std::string& quad : sortedDump(dir / "db")) quads.push_back(std::regex_replace(quad, std::regex("_:[A-Za-z0-9_]+"), "_:b"));
  std::sort(quads.begin(), quads.end());
  CHECK(quads == readLines(dataFile("load/graphs.expected.nq")));
  CHECK(Database(dir / "db").statistics().namedGraphs == 3);
}

TEST_CASE("a dump loads back to the same graph") {
  TempDir dir;
  Database::load(dir / "a", {dataFile("load/tricky.nt")});
  auto first = sortedDump(dir / "a");
  writeFile(dir / "dump.nt", [&] {
    std::string all;
    for (const auto& line : first) all += line + "\n";
    return all;
  }());
  Database::load(dir / "b", {(dir / "dump.nt").string()});
  auto second = sortedDump(dir / "b");
  REQUIRE(second.size() == first.size());
  // Blank nodes get the new file's scope prefix; everything else is identical.
  for (size_t i = 0; i < first.size(); ++i) {
    if (first[i].find("_:") == std::string::npos) CHECK(second[i] == first[i]);
  }
}

TEST_CASE("standard input is read, and its compression recognised by magic bytes") {
  TempDir dir;
  auto result = runCli({"load", "--db", (dir / "db").string(), "-"}, {}, dataFile("load/tricky.nt.zst"));
  REQUIRE(result.exitCode == 0);
  CHECK(sortedDump(dir / "db") == expectedTricky());
}

TEST_CASE("the bundled WatDiv SF1 sample loads to 106,012 unique triples") {
  TempDir dir;
  LoadSummary summary = Database::load(dir.path(), {dataFile("watdiv/sf1.nt.zst")});
  CHECK(summary.triplesRead > summary.uniqueTriples);  // WatDiv repeats about 5% of its lines
  CHECK(summary.uniqueTriples == 106012);
  DatabaseStatistics stats = Database(dir.path()).statistics();
  CHECK(stats.triples == 106012);
  CHECK(stats.predicates.size() == summary.predicates);
  uint64_t perPredicate = 0;
  for (const auto& p : stats.predicates) perPredicate += p.statistics.triples;
  CHECK(perPredicate == 106012);
  Database(dir.path()).verify();
}

TEST_CASE("statistics agree with counts taken from the dump") {
  TempDir dir;
  Database::load(dir.path(), {dataFile("load/tricky.nt")});
  std::map<std::string, std::set<std::string>> subjects, objects;
  std::map<std::string, std::map<std::string, uint32_t>> outDegree, inDegree;
  std::map<std::string, uint64_t> triples;
  for (const auto& line : sortedDump(dir.path())) {
    // Subjects and predicates never contain spaces in this data; objects may.
    size_t a = line.find(' '), b = line.find(' ', a + 1);
    std::string s = line.substr(0, a), p = line.substr(a + 1, b - a - 1);
    std::string o = line.substr(b + 1, line.size() - b - 3);
    ++triples[p];
    subjects[p].insert(s);
    objects[p].insert(o);
    ++outDegree[p][s];
    ++inDegree[p][o];
  }
  auto maxOf = [](const std::map<std::string, uint32_t>& m) {
    uint32_t best = 0;
    for (const auto& [k, v] : m) best = std::max(best, v);
    return best;
  };
  DatabaseStatistics stats = Database(dir.path()).statistics();
  REQUIRE(stats.predicates.size() == triples.size());
  for (const auto& [name, st, graph] : stats.predicates) {
    CAPTURE(name);
    CHECK(st.triples == triples[name]);
    CHECK(st.distinctSubjects == subjects[name].size());
    CHECK(st.distinctObjects == objects[name].size());
    CHECK(st.maxOutDegree == maxOf(outDegree[name]));
    CHECK(st.maxInDegree == maxOf(inDegree[name]));
  }
}
