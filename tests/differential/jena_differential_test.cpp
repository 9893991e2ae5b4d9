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
  gsparql::sparql::Query q = gsparql::sparql::parseQuery(queryText);
  std::set<std::string> projected;
  bool projectAll = true;
  for (const Op* op = q.pattern.get(); op; op = op->children.empty() ? nullptr : op->children[0].get()) {
    if (op->kind == Op::Kind::Project) {
      projectAll = false;
      projected.insert(op->vars.begin(), op->vars.end());
    } else if (op->kind == Op::Kind::Reduced) {
      options.laxCardinality = true;
    } else if (op->kind == Op::Kind::OrderBy) {
      for (const auto& key : op->order) {
        if (key.expr.kind != gsparql::sparql::Expr::Kind::Term ||
            key.expr.term.kind != gsparql::sparql::Term::Kind::Variable)
          break;
        if (!projectAll && !projected.count(key.expr.term.value)) break;
        options.orderKeys.push_back(key.expr.term.value);
      }
      break;
    } else if (op->kind != Op::Kind::Slice && op->kind != Op::Kind::Distinct) {
      break;
    }
  }
  return options;
}

ResultSet actualResult(const gsparql::QueryResult& r) {
  ResultSet out;
  if (r.isBoolean()) {
    out.isBoolean = true;
    out.boolean = r.booleanValue();
  } else if (r.isGraph()) {
    out.isGraph = true;
    r.forEachTriple([&](std::string_view s, std::string_view p, std::string_view o) {
      out.triples.insert({canonicalTerm(s), canonicalTerm(p), canonicalTerm(o)});
    });
  } else {
    out.variables = r.variables();
    for (const auto& row : r.rows()) {
      Solution s;
      for (size_t i = 0; i < row.size() && i < out.variables.size(); ++i)
        if (row[i]) s[out.variables[i]] = canonicalTerm(*row[i]);
      out.solutions.push_back(std::move(s));
    }
  }
  return out;
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
        actual = actualResult(database.query(text, {gsparql::Backend::Cpu, gsparql::Semantics::Homomorphism}));
      } catch (const std::exception& e) {
        FAIL("gsparql failed: " << e.what());
      }
      const auto difference = compareResults(expected, actual, compareOptions(text));
      CHECK_MESSAGE(!difference, (difference ? *difference : std::string()));
    }
  }
}
