// Differential tests against Apache Jena (tests/differential/README.md): every
// queries/NN-name.rq runs over all of data/ loaded into one database, and its
// answer is compared with expected/NN-name.srj (SELECT, ASK) or .nt
// (CONSTRUCT, DESCRIBE), Jena's answer or, for queries marked
// "# expect: spec", a hand-checked one. The comparison is the conformance
// runner's (tests/conformance/results.h): solutions as a bag, the order of the
// leading ORDER BY keys that are projected variables, blank nodes and graphs
// up to a consistent renaming, REDUCED with lax cardinality.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "gsparql/database.h"
#include "parser/parse.h"
#include "engine_answer.h"
#include "results.h"
#include "support/files.h"
#include "support/test_support.h"

namespace {

namespace fs = std::filesystem;
using namespace gsparql::conformance;

const fs::path kDir = GSPARQL_DIFFERENTIAL_DIR;

std::vector<fs::path> filesIn(const fs::path& dir, const std::set<std::string>& extensions) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.is_regular_file() && extensions.count(entry.path().extension().string())) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

// Every data file loaded once into one database for the whole run.
const fs::path& database() {
  static gsparql::test::TempDir scratch;
  static const fs::path db = [] {
    std::vector<std::string> inputs;
    for (const auto& f : filesIn(kDir / "data", {".nt", ".ttl"})) inputs.push_back(f.string());
    fs::path dir = scratch / "db";
    gsparql::Database::load(dir, inputs);
    return dir;
  }();
  return db;
}

// How the answer may be compared: the leading ORDER BY keys that are plain
// projected variables (their order is checked), and REDUCED.
CompareOptions compareOptions(const std::string& queryText) {
  using gsparql::sparql::Op;
  CompareOptions options;
  const gsparql::sparql::Query q = gsparql::sparql::parseQuery(queryText);
  options.orderKeys = orderKeys(q);
  for (const Op* op = q.pattern.get(); op && !op->children.empty(); op = op->children[0].get()) {
    options.laxCardinality = options.laxCardinality || op->kind == Op::Kind::Reduced;
  }
  return options;
}

fs::path expectedFile(const fs::path& query) {
  for (const char* ext : {".srj", ".nt"}) {
    fs::path f = kDir / "expected" / query.stem();
    f += ext;
    if (fs::exists(f)) return f;
  }
  return {};
}

}  // namespace

TEST_CASE("Jena answers: every query of tests/differential/queries") {
  const auto queries = filesIn(kDir / "queries", {".rq"});
  REQUIRE(queries.size() >= 60);
  const fs::path& db = database();
  for (const auto& query : queries) {
    const std::string name = query.stem().string();
    SUBCASE(name.c_str()) {
      const std::string text = gsparql::test::readText(query);
      INFO("query " << name << ":\n" << text);
      const fs::path expectedPath = expectedFile(query);
      REQUIRE_MESSAGE(!expectedPath.empty(), "no expected/" << name << ".srj or .nt");
      const ResultSet expected = readResultFile(expectedPath);
      ResultSet actual;
      try {
        gsparql::Database database(db);
        actual = toResultSet(database.query(text, {gsparql::Backend::Cpu, gsparql::Semantics::Homomorphism}));
      } catch (const std::exception& e) {
        FAIL("gsparql failed: " << e.what());
      }
      const auto difference = compareResults(expected, actual, compareOptions(text));
      CHECK_MESSAGE(!difference, (difference ? *difference : std::string()));
    }
  }
}
