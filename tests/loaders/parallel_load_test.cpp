// N-Triples and N-Quads are cut into pieces of a few MiB and parsed on all
// cores; these inputs span many pieces. Turtle is read as one stream, so the
// same statements written as Turtle are an independent reading to compare with.
#include <doctest/doctest.h>

#include <string>

#include "gsparql/database.h"
#include "gsparql/error.h"
#include "storage/graph_store.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

constexpr int kLines = 160000;  // about 9 MiB: three pieces of 4 MiB

// Line i (from 1) of a document with shared and unique terms, language tags
// in two spellings (one key), and blank nodes that recur across pieces
// (labels not of the form b<number>, which the Turtle reader renames).
std::string line(int i) {
  const std::string s = "<http://e/s" + std::to_string(i % 9973) + ">";
  switch (i % 4) {
    case 0: return s + " <http://e/p" + std::to_string(i % 7) + "> <http://e/o" + std::to_string(i) + "> .\n";
    case 1: return s + " <http://e/label> \"word " + std::to_string(i % 101) + "\"@" + (i % 3 ? "en-GB" : "EN-gb") + " .\n";
    case 2: return "_:node" + std::to_string(i % 5000) + " <http://e/links> " + s + " .\n";
    default: return s + " <http://e/n> \"" + std::to_string(i) + "\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n";
  }
}

std::string document(int lines) {
  std::string text;
  for (int i = 1; i <= lines; ++i) text += line(i);
  return text;
}

// Each vertex id's term, in id order.
std::vector<std::string> termsById(const std::filesystem::path& db) {
  GraphStore store(db);
  std::vector<std::string> terms;
  for (uint32_t v = 0; v < store.terms()->size(); ++v) terms.emplace_back(store.terms()->term(v));
  return terms;
}

}  // namespace

TEST_CASE("N-Triples read in parallel pieces gives the graph of the same text read as one Turtle stream") {
  TempDir dir;
  const std::string text = document(kLines);
  REQUIRE(text.size() > 8u << 20);
  writeFile(dir / "big.nt", text);
  writeFile(dir / "big.ttl", text);
  const LoadSummary nt = Database::load(dir / "nt", {(dir / "big.nt").string()});
  Database::load(dir / "ttl", {(dir / "big.ttl").string()});
  CHECK(nt.triplesRead == kLines);
  CHECK(sortedDump(dir / "nt") == sortedDump(dir / "ttl"));
}

TEST_CASE("parallel reading gives the same ids on every run") {
  TempDir dir;
  writeFile(dir / "big.nt", document(kLines));
  Database::load(dir / "a", {(dir / "big.nt").string()});
  Database::load(dir / "b", {(dir / "big.nt").string()});
  CHECK(termsById(dir / "a") == termsById(dir / "b"));
}

TEST_CASE("a bad statement deep in the input is reported at its line in the whole input") {
  TempDir dir;
  std::string text = document(kLines);
  const int badLine = kLines - 17;
  size_t at = 0;
  for (int i = 1; i < badLine; ++i) at = text.find('\n', at) + 1;
  text.insert(at, "<http://e/x> <http://e/y> \"unclosed .\n");
  writeFile(dir / "bad.nt", text);
  try {
    Database::load(dir / "db", {(dir / "bad.nt").string()});
    FAIL("the load should have failed");
  } catch (const LoadError& e) {
    CHECK(std::string(e.what()).starts_with((dir / "bad.nt").string() + ":" + std::to_string(badLine) + ":38:"));
  }
  CHECK_FALSE(std::filesystem::exists(dir / "db" / "CURRENT"));

  LoadOptions lenient;
  lenient.lenient = true;
  const LoadSummary summary = Database::load(dir / "lenient", {(dir / "bad.nt").string()}, lenient);
  CHECK(summary.skippedStatements == 1);
  CHECK(summary.triplesRead == kLines);
  REQUIRE(summary.firstErrors.size() == 1);
  CHECK(summary.firstErrors[0].find(":" + std::to_string(badLine) + ":") != std::string::npos);
}

TEST_CASE("lenient errors of many pieces come in input order") {
  TempDir dir;
  std::string text;
  for (int i = 1; i <= kLines; ++i) text += i % 20000 == 0 ? "<http://e/broken\n" : line(i);
  writeFile(dir / "bad.nt", text);
  LoadOptions lenient;
  lenient.lenient = true;
  const LoadSummary summary = Database::load(dir / "db", {(dir / "bad.nt").string()}, lenient);
  CHECK(summary.skippedStatements == kLines / 20000);
  REQUIRE(summary.firstErrors.size() == 5);
  for (size_t k = 0; k < summary.firstErrors.size(); ++k) {
    CHECK(summary.firstErrors[k].find(":" + std::to_string(20000 * (k + 1)) + ":") != std::string::npos);
  }
}

TEST_CASE("an incremental load keeps the ids of the terms already there") {
  TempDir dir;
  writeFile(dir / "big.nt", document(kLines));
  writeFile(dir / "more.nt", "<http://e/new> <http://e/p1> <http://e/s1> .\n" + line(3));
  Database::load(dir / "db", {(dir / "big.nt").string()});
  const auto before = termsById(dir / "db");
  LoadOptions small;
  small.memoryBudgetBytes = 1 << 20;  // runs spilled to disk are renumbered too
  Database::load(dir / "db", {(dir / "more.nt").string()}, small);
  const auto after = termsById(dir / "db");
  REQUIRE(after.size() == before.size() + 1);
  CHECK(std::equal(before.begin(), before.end(), after.begin()));
  CHECK(after.back() == "<http://e/new>");
  Database::load(dir / "fresh", {(dir / "big.nt").string(), (dir / "more.nt").string()});
  CHECK(sortedDump(dir / "db") == sortedDump(dir / "fresh"));
}

TEST_CASE("in N-Triples a bad comment line is skipped alone, not with the statement after it") {
  // The fuzzer's find: read as one stream the bad bytes counted against the
  // next line's statement, read in pieces they did not.
  TempDir dir;
  writeFile(dir / "comment.nt", "<http://e/a> <http://e/p> <http://e/b> .\n# bad \xff\xfe bytes\n<http://e/c> <http://e/p> <http://e/d> .\n");
  LoadOptions lenient;
  lenient.lenient = true;
  const LoadSummary summary = Database::load(dir / "db", {(dir / "comment.nt").string()}, lenient);
  CHECK(summary.skippedStatements == 1);
  CHECK(sortedDump(dir / "db") == std::vector<std::string>{"<http://e/a> <http://e/p> <http://e/b> .",
                                                           "<http://e/c> <http://e/p> <http://e/d> ."});
  REQUIRE(summary.firstErrors.size() == 1);
  CHECK(summary.firstErrors[0].find("comment.nt:2:7: invalid UTF-8") != std::string::npos);
}
