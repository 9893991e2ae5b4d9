// Patterns that share no variable with the rows they are tested against:
// every solution of the pattern is compatible with every row, so FILTER
// EXISTS and NOT EXISTS read the pattern's first solution only, and MINUS
// removes nothing (section 18.5) and never runs its pattern. Checked where
// computing the pattern whole would outgrow the memory budget, against the
// answer the pattern's ASK gives.
#include <doctest/doctest.h>

#include <optional>

#include "gsparql/database.h"
#include "gsparql/error.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

// 1,000 <p> triples, so { ?a <p> ?b . ?c <p> ?d } has a million solutions;
// three subjects with a name.
struct Fixture {
  TempDir dir;
  std::optional<Database> db;
  Fixture() {
    std::string text;
    for (int i = 0; i < 1000; ++i) {
      text += "<http://e/s" + std::to_string(i) + "> <http://e/p> <http://e/o" + std::to_string(i % 7) + "> .\n";
    }
    for (int i = 0; i < 3; ++i) text += "<http://e/n" + std::to_string(i) + "> <http://e/name> \"n\" .\n";
    writeFile(dir / "data.nt", text);
    Database::load(dir / "db", {(dir / "data.nt").string()});
    db.emplace(dir / "db");
  }
};

// A budget the million solutions (32 MB as ids) outgrow.
QueryOptions budget() {
  QueryOptions options{.backend = Backend::Cpu};
  options.memoryBudgetBytes = 4 << 20;
  return options;
}

const std::string kNamed = "?s <http://e/name> ?n";

}  // namespace

TEST_CASE("EXISTS and NOT EXISTS of a pattern sharing no variable read one solution of it") {
  Fixture f;
  const std::string product = "{ ?a <http://e/p> ?b . ?c <http://e/p> ?d }";
  CHECK_THROWS_AS(f.db->query("SELECT * WHERE " + product, budget()), QueryOutOfMemory);
  const std::vector<std::string> named = resultLines(f.db->query("SELECT ?s WHERE { " + kNamed + " } ORDER BY ?s"));
  REQUIRE(named.size() == 3);
  // A semi- or anti-join (the pattern is a BGP); by substitution (an OPTIONAL
  // inside); a pattern without solutions.
  for (const std::string& pattern : std::vector<std::string>{product, "{ ?a <http://e/p> ?b OPTIONAL { ?c <http://e/p> ?d } }",
                                                             "{ ?a <http://e/none> ?b . ?c <http://e/p> ?d }"}) {
    CAPTURE(pattern);
    const bool some = f.db->query("ASK " + pattern).booleanValue();
    for (const bool negated : {false, true}) {
      const std::string query = "SELECT ?s WHERE { " + kNamed + " FILTER " + (negated ? "NOT " : "") + "EXISTS " +
                                pattern + " } ORDER BY ?s";
      CHECK(resultLines(f.db->query(query, budget())) == (some != negated ? named : std::vector<std::string>{}));
    }
  }
}

TEST_CASE("the pattern of an EXISTS is not run for an input without rows") {
  Fixture f;
  QueryOptions explained = budget();
  explained.explain = true;
  const std::string plan = f.db->query("SELECT * WHERE { ?s <http://e/name> ?n FILTER(?n = \"none\") "
                                       "FILTER EXISTS { ?a <http://e/p> ?b . ?c <http://e/p> ?d } }",
                                       explained).explain();
  CAPTURE(plan);
  CHECK(plan.find("SemiJoin (EXISTS) no shared variable") != std::string::npos);
  CHECK(plan.find("not run") != std::string::npos);
}

TEST_CASE("MINUS of a pattern sharing no variable removes nothing and does not run it") {
  Fixture f;
  const std::vector<std::string> named = resultLines(f.db->query("SELECT ?s WHERE { " + kNamed + " } ORDER BY ?s"));
  QueryOptions explained = budget();
  explained.explain = true;
  const QueryResult result = f.db->query(
      "SELECT ?s WHERE { " + kNamed + " MINUS { ?a <http://e/p> ?b . ?c <http://e/p> ?d } } ORDER BY ?s", explained);
  CHECK(resultLines(result) == named);
  CHECK(result.explain().find("Minus") == std::string::npos);
  // Sharing ?s, it runs (and removes the rows it matches).
  CHECK(resultLines(f.db->query("SELECT ?s WHERE { " + kNamed + " MINUS { ?s <http://e/name> \"n\" } }")).empty());
}
