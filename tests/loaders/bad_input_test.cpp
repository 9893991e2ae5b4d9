#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>

#include "gsparql/database.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

struct BadInput {
  const char* name;
  const char* content;
  const char* position;  // expected "line:column:" after the file name
  const char* message;   // a part of the explanation
};

// 1-based line and column where the reader gave up: usually the offending
// character, sometimes the one after it.
const BadInput kBadInputs[] = {
    {"escape.nt", "<http://e/s> <http://e/p> \"ok\" .\n<http://e/s> <http://e/p> \"bad \\q\" .\n", "2:33:",
     "invalid escape"},
    {"iri.nt", "<http://e/s> <http://e/p \"x\" .\n", "1:25:", "invalid IRI character"},
    {"no-dot.nt", "<http://e/s> <http://e/p> \"x\"\n<http://e/s> <http://e/p> \"y\" .\n", "1:30:",
     "does not end on its line"},
    {"no-dot.ttl", "<http://e/s> <http://e/p> \"x\"\n<http://e/s> <http://e/p> \"y\" .\n", "2:1:",
     "missing ';' or '.'"},
    {"literal-subject.nt", "\"lit\" <http://e/p> \"x\" .\n", "1:1:", "expected a subject"},
    {"empty-language.nt", "<http://e/s> <http://e/p> \"x\"@ .\n", "1:31:", "unexpected"},
    {"unterminated.nt", "<http://e/s> <http://e/p> \"x .\n", "1:31:", "line end in short string"},
    {"bad-utf8.nt", "<http://e/s> <http://e/p> \"\xff\" .\n", "1:28:", "invalid UTF-8"},
    {"relative.nt", "<rel> <http://e/p> \"x\" .\n", "1:1:", "missing IRI scheme"},
    {"prefix.ttl", "@prefix ex: <http://e/> .\nex:s ex:p nope:o .\n", "2:11:", "undefined prefix"},
    {"bad.ttl", "@prefix ex: <http://e/> .\nex:s ex:p [ ex:q ex:r .\n", "2:23:", "expected `]'"},
    {"in-block.trig", "@prefix ex: <http://e/> .\nex:g { ex:s ex:p \"a\" .\n  ex:s ex:p }\n", "3:13:", "expected"},
    {"unclosed.trig", "@prefix ex: <http://e/> .\nex:g { ex:s ex:p \"a\" .\n", "3:1:", "expected '}'"},
    {"directive.nt", "PREFIX ex: <http://e/> .\nex:s ex:p ex:o .\n", "1:1:", "directives"},
    {"literal-graph.nq", "<http://e/s> <http://e/p> <http://e/o> \"g\" .\n", "1:", "graph"},
};

}  // namespace

TEST_CASE("bad input stops the load with file:line:column and leaves the database as it was") {
  TempDir dir;
  const auto db = dir / "db";
  Database::load(db, {dataFile("load/tricky.nt")});
  const auto before = sortedDump(db);
  const auto filesBefore = directoryEntries(db);
  for (const BadInput& bad : kBadInputs) {
    CAPTURE(bad.name);
    const auto file = dir / bad.name;
    writeFile(file, bad.content);
    try {
      Database::load(db, {dataFile("load/tricky.ttl"), file.string()});
      FAIL("the load should have failed");
    } catch (const LoadError& e) {
      std::string what = e.what();
      CAPTURE(what);
      CHECK(what.starts_with(file.string() + ":" + bad.position));
      CHECK(what.find(bad.message) != std::string::npos);
    }
    CHECK(sortedDump(db) == before);
    CHECK(directoryEntries(db) == filesBefore);
    CHECK(Database(db).statistics().generation == 1);
  }
}

TEST_CASE("a truncated compressed file is an error, not a short load") {
  TempDir dir;
  std::ifstream in(dataFile("load/tricky.nt.zst"), std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), {});
  writeFile(dir / "cut.nt.zst", bytes.substr(0, bytes.size() / 2));
  CHECK_THROWS_WITH_AS(Database::load(dir / "db", {(dir / "cut.nt.zst").string()}),
                       doctest::Contains("compressed data ends unexpectedly"), LoadError);
  CHECK_FALSE(std::filesystem::exists(dir / "db" / "CURRENT"));
}

TEST_CASE("a missing file names the file") {
  TempDir dir;
  CHECK_THROWS_WITH_AS(Database::load(dir / "db", {(dir / "nope.nt").string()}),
                       doctest::Contains("nope.nt: cannot open"), LoadError);
}

TEST_CASE("lenient loading skips bad statements and reports them with positions") {
  TempDir dir;
  writeFile(dir / "mixed.nt",
            "<http://e/s> <http://e/p> \"1\" .\n"
            "<http://e/s> <http://e/p> \"bad \\q\" .\n"
            "<http://e/s> <http://e/p> \"2\" .\n"
            "<http://e/s> <http://e/p \"x\" .\n"
            "<http://e/s> <http://e/p> \"3\" .\n");
  LoadOptions options;
  options.lenient = true;
  LoadSummary summary = Database::load(dir / "db", {(dir / "mixed.nt").string()}, options);
  CHECK(summary.skippedStatements == 2);
  REQUIRE(summary.firstErrors.size() == 2);
  CHECK(summary.firstErrors[0].starts_with((dir / "mixed.nt").string() + ":2:33:"));
  CHECK(summary.firstErrors[1].starts_with((dir / "mixed.nt").string() + ":4:"));
  CHECK(sortedDump(dir / "db") == std::vector<std::string>{"<http://e/s> <http://e/p> \"1\" .",
                                                           "<http://e/s> <http://e/p> \"2\" .",
                                                           "<http://e/s> <http://e/p> \"3\" ."});
}

TEST_CASE("the CLI reports bad input on stderr with a non-zero exit code") {
  TempDir dir;
  writeFile(dir / "bad.nt", "<http://e/s> <http://e/p> \"bad \\q\" .\n");
  auto result = runCli({"load", "--db", (dir / "db").string(), (dir / "bad.nt").string()});
  CHECK(result.exitCode == 1);
  CHECK(result.output.find("bad.nt:1:33: invalid escape") != std::string::npos);
}
