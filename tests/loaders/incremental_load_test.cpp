#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "gsparql/database.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

TEST_CASE("loading into an existing database adds the new triples to the old ones") {
  TempDir dir;
  writeFile(dir / "a.nt", "<http://e/a> <http://e/p> <http://e/b> .\n<http://e/a> <http://e/q> \"x\" .\n");
  writeFile(dir / "b.nt", "<http://e/a> <http://e/p> <http://e/b> .\n<http://e/b> <http://e/r> <http://e/a> .\n");
  Database::load(dir / "db", {(dir / "a.nt").string()});
  LoadSummary second = Database::load(dir / "db", {(dir / "b.nt").string()});
  CHECK(second.uniqueTriples == 3);
  CHECK(second.predicates == 3);
  CHECK(sortedDump(dir / "db") == std::vector<std::string>{
                                      "<http://e/a> <http://e/p> <http://e/b> .",
                                      "<http://e/a> <http://e/q> \"x\" .",
                                      "<http://e/b> <http://e/r> <http://e/a> .",
                                  });
  CHECK(Database(dir / "db").statistics().generation == 2);
}

TEST_CASE("blank nodes are scoped per input file") {
  TempDir dir;
  writeFile(dir / "a.nt", "_:n <http://e/p> \"from a\" .\n");
  writeFile(dir / "b.nt", "_:n <http://e/p> \"from b\" .\n");
  Database::load(dir / "db", {(dir / "a.nt").string(), (dir / "b.nt").string()});
  Database::load(dir / "db", {(dir / "a.nt").string()});
  auto lines = sortedDump(dir / "db");
  // Three files, three scopes: the same label gives three different nodes.
  REQUIRE(lines.size() == 3);
  std::set<std::string> subjects;
  for (const auto& l : lines) subjects.insert(l.substr(0, l.find(' ')));
  CHECK(subjects.size() == 3);
  CHECK(Database(dir / "db").statistics().terms == 5);  // three blank nodes, two literals
}

TEST_CASE("the sort buffer spills to runs and the merge still removes duplicates") {
  TempDir dir;
  LoadOptions small;
  small.memoryBudgetBytes = 12 * 1000;  // the smallest sort buffer, 1,024 triples a run: the sample needs over a hundred runs
  LoadSummary spilled = Database::load(dir / "small", {dataFile("watdiv/sf1.nt.zst")}, small);
  Database::load(dir / "large", {dataFile("watdiv/sf1.nt.zst")});
  CHECK(spilled.uniqueTriples == 106012);
  CHECK(sortedDump(dir / "small") == sortedDump(dir / "large"));
}
