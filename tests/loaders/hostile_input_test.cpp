// Regression tests of issue 13: inputs that used to be half-loaded, stored
// wrong, loop forever or crash the loader.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "gsparql/database.h"
#include "gsparql/error.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

std::vector<std::string> entries(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

std::string repeated(const std::string& text, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += text;
  return out;
}

// `levels` nested blank nodes, or nested collections.
std::string nestedTurtle(int levels, bool collections) {
  const std::string open = collections ? "( " : "[ :p ";
  const std::string close = collections ? " )" : " ]";
  return "@prefix : <http://e/> .\n:s :p " + repeated(open, levels) + ":o" + repeated(close, levels) + " .\n";
}

// A strict load of `content` fails with `expected` (file:line:column: message
// after the directory) and leaves the database of tricky.nt as it was.
void checkRefused(const std::string& fileName, const std::string& content, const std::string& expected) {
  CAPTURE(fileName);
  TempDir dir;
  const auto db = dir / "db";
  Database::load(db, {dataFile("load/tricky.nt")});
  const auto before = sortedDump(db);
  const auto filesBefore = entries(db);
  writeFile(dir / fileName, content);
  try {
    Database::load(db, {(dir / fileName).string()});
    FAIL("the load should have failed");
  } catch (const LoadError& e) {
    CAPTURE(std::string(e.what()));
    CHECK(std::string(e.what()).starts_with((dir / expected).string()));
  }
  CHECK(sortedDump(db) == before);
  CHECK(entries(db) == filesBefore);
}

struct LenientResult {
  std::vector<std::string> triples;
  LoadSummary summary;
};

LenientResult loadLeniently(const std::string& fileName, const std::string& content) {
  TempDir dir;
  writeFile(dir / fileName, content);
  LoadOptions options;
  options.lenient = true;
  LenientResult result;
  result.summary = Database::load(dir / "db", {(dir / fileName).string()}, options);
  result.triples = sortedDump(dir / "db");
  return result;
}

const std::string kPrefix = "@prefix ex: <http://e/> .\n";

}  // namespace

TEST_CASE("an error inside [ ] fails a strict load, as one inside ( ) does") {
  checkRefused("anon.ttl", kPrefix + "ex:b ex:r [ ex:t e ] .\n", "anon.ttl:2:18: expected a prefixed name");
  checkRefused("list.ttl", kPrefix + "ex:b ex:r ( ex:c e ) .\n", "list.ttl:2:18:");
  checkRefused("extra.nt", "<http://e/a> <http://e/b> <http://e/c> <http://e/d> .\n", "extra.nt:1:40:");
}

TEST_CASE("a lenient load drops the whole bad statement, none of its triples") {
  const std::vector<std::string> kept{"<http://e/a> <http://e/r> <http://e/c> .",
                                      "<http://e/d> <http://e/r> <http://e/e> ."};
  for (const std::string bad : {"ex:b ex:r [ ex:t e ] .\n", "ex:b ex:r ( ex:c e ) .\n",
                                "ex:b ex:r ex:c ;\n  ex:q \"bad \\q\" ;\n  ex:s ex:t .\n",
                                "ex:b ex:r [ ex:t ex:u ; ex:v \"\\uD800\" ] .\n"}) {
    CAPTURE(bad);
    auto result = loadLeniently("mixed.ttl", kPrefix + "ex:a ex:r ex:c .\n" + bad + "ex:d ex:r ex:e .\n");
    CHECK(result.triples == kept);
    CHECK(result.summary.skippedStatements == 1);
    CHECK(result.summary.triplesRead == 2);
  }
}

TEST_CASE("code points beyond Unicode, surrogates and malformed UTF-8 are refused with their position") {
  const std::string s = "<http://e/s> <http://e/p> ";
  checkRefused("beyond.nt", s + "\"\\U00110000\" .\n", "beyond.nt:1:28: escape of U+110000, beyond Unicode");
  checkRefused("surrogate.nt", s + "\"a\\uD800b\" .\n", "surrogate.nt:1:29: escape of the surrogate U+D800");
  checkRefused("iri.nt", s + "<http://e/\\uDFFF> .\n", "iri.nt:1:37: escape of the surrogate U+DFFF");
  checkRefused("overlong.nt", s + "\"\xC0\xAF\" .\n", "overlong.nt:1:28: invalid UTF-8 (byte 0xC0)");
  checkRefused("overlong3.nt", s + "\"\xE0\x80\xAF\" .\n", "overlong3.nt:1:28: invalid UTF-8 (byte 0xE0)");
  checkRefused("raw-surrogate.nt", s + "\"\xED\xA0\x80\" .\n", "raw-surrogate.nt:1:28: invalid UTF-8 (byte 0xED)");
  checkRefused("raw-beyond.nt", s + "\"\xF4\x90\x80\x80\" .\n", "raw-beyond.nt:1:28: invalid UTF-8 (byte 0xF4)");
  checkRefused("cut.nt", s + "\"\xE2\x82\" .\n", "cut.nt:1:28: invalid UTF-8 (byte 0xE2)");
  checkRefused("nul.nt", s + std::string("\0\"ab\" .\n", 8), "nul.nt:1:27: NUL byte");  // in a string it is read (rdfxml_test.cpp)
}

TEST_CASE("every Unicode character loads, escaped or not, and dumps as valid UTF-8") {
  const std::string s = "<http://e/s> <http://e/p> ";
  TempDir dir;
  writeFile(dir / "ok.nt", s + "\"\\U0010FFFF\\uFFFD\\U0001F600\" .\n" + s + "\"\xF4\x8F\xBF\xBF\xEF\xBF\xBD\xF0\x9F\x98\x80\" .\n");
  Database::load(dir / "db", {(dir / "ok.nt").string()});
  CHECK(sortedDump(dir / "db") ==
        std::vector<std::string>{s + "\"\xF4\x8F\xBF\xBF\xEF\xBF\xBD\xF0\x9F\x98\x80\" ."});
}

TEST_CASE("lenient loads skip statements with invalid characters") {
  auto result = loadLeniently("mixed.nt",
                              "<http://e/s> <http://e/p> \"1\" .\n"
                              "<http://e/s> <http://e/p> \"\\U00110000\" .\n"
                              "<http://e/s> <http://e/p> \"\xC0\xAF\" .\n"
                              "<http://e/s> <http://e/p> \"2\" .\n");
  CHECK(result.triples == std::vector<std::string>{"<http://e/s> <http://e/p> \"1\" .",
                                                   "<http://e/s> <http://e/p> \"2\" ."});
  CHECK(result.summary.skippedStatements == 2);
}

TEST_CASE("a lenient load ends on a file cut off inside an IRI or a string") {
  // This looped forever at 100% CPU.
  for (const auto& [cut, error] : {std::pair{"<http://e/p", ":2:25: the input ends inside an IRI"},
                                   std::pair{"<http://e/p> \"\"\"abc", ":2:33: the input ends inside a string"}}) {
    CAPTURE(cut);
    auto result = loadLeniently("cut.ttl", std::string("<http://e/s> <http://e/p> \"x\" .\n<http://e/s> ") + cut);
    CHECK(result.triples == std::vector<std::string>{"<http://e/s> <http://e/p> \"x\" ."});
    REQUIRE(result.summary.firstErrors.size() == 1);
    CAPTURE(result.summary.firstErrors[0]);
    CHECK(result.summary.firstErrors[0].ends_with(std::string("cut.ttl") + error));
  }
}

TEST_CASE("deep nesting is refused with its position instead of overflowing the stack") {
  checkRefused("blank.ttl", nestedTurtle(100000, false), "blank.ttl:2:2567: nesting deeper than 512 levels");
  checkRefused("list.ttl", nestedTurtle(100000, true), "list.ttl:2:1031: nesting deeper than 512 levels");
  TempDir dir;
  writeFile(dir / "deepest.ttl", nestedTurtle(512, false));
  CHECK(Database::load(dir / "db", {(dir / "deepest.ttl").string()}).triplesRead == 513);

  auto result = loadLeniently("mixed.ttl", nestedTurtle(100000, true) + "<http://e/a> <http://e/b> <http://e/c> .\n");
  CHECK(result.triples == std::vector<std::string>{"<http://e/a> <http://e/b> <http://e/c> ."});
  CHECK(result.summary.skippedStatements == 1);
}

TEST_CASE("a lenient load resumes after the line of an error that never ends its statement") {
  auto result = loadLeniently("open.ttl", kPrefix +
                                              "ex:a ex:r [ ex:t ex:u .\n"
                                              "ex:d ex:r ex:e .\n");
  CHECK(result.triples == std::vector<std::string>{"<http://e/d> <http://e/r> <http://e/e> ."});
  CHECK(result.summary.skippedStatements == 1);
}

TEST_CASE("dots inside names, numbers and strings do not end a statement") {
  TempDir dir;
  writeFile(dir / "dots.ttl", kPrefix +
                                  "ex:a.b ex:p 1.5, .5, 1.e3, \"x. y\", \"\"\"a.\n.b\"\"\", ex:c\\.d, <http://e/x.y> .\n"
                                  "ex:a.b ex:p \"z\".ex:f ex:p ex:g.\n");
  CHECK(Database::load(dir / "db", {(dir / "dots.ttl").string()}).triplesRead == 9);
}

TEST_CASE("a database path that is a file is a clear error") {
  TempDir dir;
  writeFile(dir / "file", "x");
  CHECK_THROWS_WITH_AS(Database::load(dir / "file", {dataFile("load/tricky.nt")}),
                       doctest::Contains("file: not a database directory"), StorageError);
}

TEST_CASE("an empty compressed file loads no triples, whatever the compression") {
  TempDir dir;
  for (const char* name : {"empty.nt.gz", "empty.nt.bz2", "empty.nt.xz", "empty.nt.zst"}) {
    CAPTURE(name);
    writeFile(dir / name, "");
    CHECK(Database::load(dir / (std::string(name) + ".db"), {(dir / name).string()}).triplesRead == 0);
  }
}

TEST_CASE("a statement that never closes is cut at 64 MiB instead of being buffered to the end") {
  // An unclosed long string swallows everything after it.
  const std::string comments = repeated("# " + std::string(1022, 'x') + "\n", 65 << 10);
  const std::string content = "<http://e/s> <http://e/p> \"\"\"open\n" + comments + "<http://e/a> <http://e/b> <http://e/c> .\n";
  checkRefused("open.ttl", content, "open.ttl:1:1: statement longer than 64 MiB");
  auto result = loadLeniently("open.ttl", content);
  CHECK(result.triples == std::vector<std::string>{"<http://e/a> <http://e/b> <http://e/c> ."});
  CHECK(result.summary.skippedStatements == 1);
}

TEST_CASE("N-Triples has no long strings: an unclosed one ends at its line, however the input is cut") {
  const std::string comments = repeated("# " + std::string(1022, 'x') + "\n", 8 << 10);
  const std::string content = "<http://e/s> <http://e/p> \"\"\"open\n" + comments + "<http://e/a> <http://e/b> <http://e/c> .\n";
  checkRefused("open.nt", content, "open.nt:1:");
  auto result = loadLeniently("open.nt", content);
  CHECK(result.triples == std::vector<std::string>{"<http://e/a> <http://e/b> <http://e/c> ."});
  CHECK(result.summary.skippedStatements == 1);
}
