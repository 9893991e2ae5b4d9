#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <fstream>
#include <sstream>

#include "gsparql/database.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

// The SF1 database, loaded once for all cases of this binary.
const Database& sf1() {
  static TempDir dir;
  static Database db = [] {
    Database::load(dir.path(), {dataFile("watdiv/sf1.nt.zst")});
    return Database(dir.path());
  }();
  return db;
}

// Rows as the reference writes them: terms tab-separated, sorted bytewise.
std::vector<std::string> sortedTsvRows(const QueryResult& result) {
  std::vector<std::string> rows;
  result.forEachRow([&](std::span<const Term> row) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      if (i > 0) line += '\t';
      if (row[i]) line += *row[i];
    }
    rows.push_back(std::move(line));
  });
  std::sort(rows.begin(), rows.end());
  return rows;
}

std::vector<std::filesystem::path> queries() {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dataFile("watdiv/sf1/queries"))) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

// The reference file's rows, sorted, without its header.
std::vector<std::string> expectedRows(const std::string& name) {
  auto expected = readLines(dataFile("watdiv/sf1/expected/" + name + ".tsv"));
  REQUIRE(!expected.empty());
  expected.erase(expected.begin());  // header
  std::sort(expected.begin(), expected.end());
  return expected;
}

void checkAllQueries(Semantics semantics) {
  size_t nonEmpty = 0;
  for (const auto& query : queries()) {
    const std::string name = query.stem().string();
    CAPTURE(name);
    const auto expected = expectedRows(name);
    QueryOptions options;
    options.backend = Backend::Cpu;
    options.semantics = semantics;
    QueryResult result = sf1().query(readText(query), options);
    if (semantics == Semantics::Homomorphism) {
      CHECK(sortedTsvRows(result) == expected);
    } else {
      // Injective matches are a sub-bag of the homomorphic ones.
      auto rows = sortedTsvRows(result);
      CHECK(std::includes(expected.begin(), expected.end(), rows.begin(), rows.end()));
    }
    nonEmpty += !expected.empty();
  }
  CHECK(nonEmpty > 50);
}

}  // namespace

TEST_CASE("every WatDiv SF1 query returns exactly the reference rows") {
  checkAllQueries(Semantics::Homomorphism);
}

TEST_CASE("injective matching returns a subset of the reference rows") {
  checkAllQueries(Semantics::Isomorphism);
}

TEST_CASE("every WatDiv SF1 query written as it runs (queryTo, BGPs found a chunk at a time) gives the reference rows") {
  for (const auto& query : queries()) {
    const std::string name = query.stem().string();
    CAPTURE(name);
    std::ostringstream out;
    const QuerySummary summary = sf1().queryTo(readText(query), out, ResultFormat::Tsv, {.backend = Backend::Cpu});
    std::istringstream lines(out.str());
    std::vector<std::string> rows;
    for (std::string line; std::getline(lines, line);) rows.push_back(line);
    REQUIRE(!rows.empty());
    rows.erase(rows.begin());  // header
    std::sort(rows.begin(), rows.end());
    CHECK(rows == expectedRows(name));
    CHECK(summary.rows == rows.size());
    CHECK_FALSE(summary.stopped);
  }
}

TEST_CASE("COUNT(*) of every WatDiv SF1 query is its reference's row count, counted without rows") {
  for (const auto& query : queries()) {
    const std::string name = query.stem().string();
    CAPTURE(name);
    for (Semantics semantics : {Semantics::Homomorphism, Semantics::Isomorphism}) {
      QueryResult counted = sf1().query(countingQuery(readText(query)), {Backend::Cpu, semantics});
      CHECK(counted.explain().find("BgpCount") != std::string::npos);
      const size_t rows = semantics == Semantics::Homomorphism
                              ? expectedRows(name).size()
                              : sf1().query(readText(query), {Backend::Cpu, semantics}).rowCount();
      CHECK(countOf(counted) == rows);
    }
  }
}

TEST_CASE("COUNT(DISTINCT ?v) of every variable of every WatDiv SF1 query is the distinct values of its rows, merged early") {
  size_t counted = 0;
  for (const auto& query : queries()) {
    const std::string text = readText(query);
    const QueryResult rows = sf1().query(text, {Backend::Cpu});
    for (size_t column = 0; column < rows.variables().size(); ++column) {
      std::set<std::string> values;
      rows.forEachRow([&](std::span<const Term> row) {
        if (row[column]) values.emplace(*row[column]);
      });
      const std::string counting = countingQuery(text, rows.variables()[column]);
      CAPTURE(counting);
      for (Semantics semantics : {Semantics::Homomorphism, Semantics::Isomorphism}) {
        const QueryResult result = sf1().query(counting, {Backend::Cpu, semantics});
        CHECK(result.explain().find("BgpCount of distinct") != std::string::npos);
        if (semantics == Semantics::Homomorphism) CHECK(countOf(result) == values.size());
        if (semantics == Semantics::Isomorphism) CHECK(countOf(result) <= values.size());
      }
      counted += !values.empty();
    }
  }
  CHECK(counted > 100);
}

TEST_CASE("plans from the sampling optimizer's seed search count what the statistics' plans count") {
  // Paths and stars with millions of solutions on SF1: their sampled plans
  // make enough rows that other seeds are tried.
  const std::string prefix = "PREFIX wsdbm: <http://db.uwaterloo.ca/~galuc/wsdbm/> PREFIX sorg: <http://schema.org/> ";
  for (const std::string where :
       {"{ ?a wsdbm:follows ?b . ?b wsdbm:follows ?c . ?c wsdbm:likes ?d . ?c wsdbm:friendOf ?e }",
        "{ ?a wsdbm:friendOf ?b . ?b wsdbm:follows ?c . ?c wsdbm:follows ?d . ?d wsdbm:likes ?e . ?e sorg:caption ?f }",
        "{ ?u wsdbm:friendOf ?f . ?u wsdbm:follows ?g . ?u wsdbm:likes ?l . ?u wsdbm:subscribes ?s }"}) {
    CAPTURE(where);
    const std::string query = prefix + "SELECT (COUNT(*) AS ?n) WHERE " + where;
    QueryOptions sampling{Backend::Cpu}, statistics{Backend::Cpu};
    statistics.optimizer = Optimizer::Statistics;
    const uint64_t expected = countOf(sf1().query(query, statistics));
    CHECK(expected > 100000);
    CHECK(countOf(sf1().query(query, sampling)) == expected);
  }
}

TEST_CASE("under memory budgets their levels outgrow, WatDiv SF1 queries run depth-first and give the reference rows") {
  // Each query under the smallest budget of 256 bytes, 512, ... 16 MiB that
  // its result fits: where a level before the last would not, the CPU
  // executor runs depth-first over chunks of rows (DGSM).
  size_t depthFirst = 0;
  for (const auto& query : queries()) {
    const std::string name = query.stem().string();
    CAPTURE(name);
    for (uint64_t budget = 256; budget <= (16 << 20); budget *= 2) {
      QueryOptions options{Backend::Cpu};
      options.memoryBudgetBytes = budget;
      try {
        QueryResult result = sf1().query(readText(query), options);
        CHECK(sortedTsvRows(result) == expectedRows(name));
        depthFirst += result.explain().find("ran depth-first") != std::string::npos;
        break;
      } catch (const QueryOutOfMemory&) {
        CHECK(budget < (16 << 20));
      }
    }
  }
  CHECK(depthFirst >= 10);
}
