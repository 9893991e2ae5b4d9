#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "gsparql/database.h"
#include "storage/graph_store.h"
#include "storage/term_column.h"
#include "file_damage.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

std::string tsv(const std::filesystem::path& db, const std::string& query) {
  std::ostringstream out;
  Database(db).query(query).write(out, ResultFormat::Tsv);
  return out.str();
}

// Every vertex's entry is its term in the dictionary.
void checkColumnMatchesDictionary(const GraphStore& store) {
  const TermColumn* column = store.terms();
  REQUIRE(column != nullptr);
  REQUIRE(column->size() == store.catalog().vertexCount);
  uint32_t checked = 0;
  store.dictionary().forEach(TermSpace::Vertex, [&](uint32_t id, std::string_view term) {
    REQUIRE(id < column->size());
    CHECK(column->term(id) == term);
    ++checked;
  });
  CHECK(checked == column->size());
  store.verify();
}

const char* kGraph = R"(<http://e/a> <http://e/name> "Anna" .
<http://e/a> <http://e/name> "Anna"@en .
<http://e/a> <http://e/name> "tab\there, quote \" and \u00e9" .
<http://e/a> <http://e/knows> _:b .
<http://e/a> <http://e/empty> "" .
<http://e/a> <http://e/age> "42"^^<http://www.w3.org/2001/XMLSchema#integer> .
)";

}  // namespace

TEST_CASE("the loader writes a term column that matches the dictionary, also after an incremental load") {
  TempDir dir;
  writeFile(dir / "a.nt", kGraph);
  writeFile(dir / "b.nt", "<http://e/b> <http://e/name> \"Bob\" .\n<http://e/b> <http://e/knows> <http://e/a> .\n");
  const auto db = dir / "db";
  Database::load(db, {(dir / "a.nt").string()});
  std::vector<std::string> first;
  {
    GraphStore store(db);
    checkColumnMatchesDictionary(store);
    for (uint32_t v = 0; v < store.terms()->size(); ++v) first.emplace_back(store.terms()->term(v));
    CHECK(std::find(first.begin(), first.end(), "\"\"") != first.end());
  }
  Database::load(db, {(dir / "b.nt").string()});
  GraphStore store(db);
  CHECK(store.generation().number == 2);
  checkColumnMatchesDictionary(store);
  REQUIRE(store.terms()->size() == first.size() + 2);  // <http://e/b>, "Bob"
  for (uint32_t v = 0; v < first.size(); ++v) CHECK(store.terms()->term(v) == first[v]);  // ids are stable
}

TEST_CASE("the term column of the WatDiv SF1 sample matches its dictionary") {
  TempDir dir;
  Database::load(dir.path(), {dataFile("watdiv/sf1.nt.zst")});
  GraphStore store(dir.path());
  CHECK(store.terms()->size() > 10000);
  checkColumnMatchesDictionary(store);
}

TEST_CASE("an empty graph has an empty term column") {
  TempDir dir;
  writeFile(dir / "empty.nt", "");
  Database::load(dir / "db", {(dir / "empty.nt").string()});
  GraphStore store(dir / "db");
  REQUIRE(store.terms() != nullptr);
  CHECK(store.terms()->size() == 0);
  store.verify();
}

TEST_CASE("a corrupted, truncated or missing term column") {
  TempDir dir;
  writeFile(dir / "a.nt", kGraph);
  Database::load(dir.path(), {(dir / "a.nt").string()});
  auto generation = currentGeneration(dir.path());
  REQUIRE(generation);
  const auto file = generation->dir / kTermsFile;
  const std::string query = "SELECT ?o WHERE { <http://e/a> <http://e/name> ?o } ORDER BY ?o";
  const std::string expected = tsv(dir.path(), query);
  const uint32_t count = GraphStore(dir.path()).terms()->size();
  const uint64_t textStart = sizeof(TermColumnHeader) + (uint64_t{count} + 1) * sizeof(uint64_t);

  const std::string block = "block 0 (ids 0 to " + std::to_string(count - 1) + ")";
  SUBCASE("a flipped byte in the text fails the first read of its block, and verify()") {
    flipBits(file, static_cast<std::streamoff>(textStart + 3));
    GraphStore store(dir.path());  // opening checks only the header
    const std::string message = "database corrupted: " + file.string() + ", offset " +
                                std::to_string(sizeof(TermColumnHeader)) + ": " + block + ": checksum mismatch";
    CHECK_THROWS_WITH_AS(store.terms()->term(count - 1), message.c_str(), StorageError);
    CHECK_THROWS_WITH_AS(store.terms()->term(0), message.c_str(), StorageError);  // every read, not the first only
    CHECK_THROWS_WITH_AS(store.verify(), message.c_str(), StorageError);
    CHECK_THROWS_WITH_AS(tsv(dir.path(), query), message.c_str(), StorageError);
  }
  SUBCASE("an offset out of range fails the read of its block before the text is read") {
    flipBits(file, sizeof(TermColumnHeader) + 2 * sizeof(uint64_t) + 6, 0x40);
    GraphStore store(dir.path());
    // Offset 2 is now past the text; offset 3 is the first below its predecessor.
    const std::string message = "database corrupted: " + file.string() + ", offset " +
                                std::to_string(sizeof(TermColumnHeader) + 3 * sizeof(uint64_t)) + ": " + block +
                                ": offsets out of order or past the text";
    CHECK_THROWS_WITH_AS(store.terms()->term(2), message.c_str(), StorageError);
    CHECK_THROWS_WITH_AS(store.verify(), message.c_str(), StorageError);
    CHECK_THROWS_AS(tsv(dir.path(), "SELECT * WHERE { ?s ?p ?o }"), StorageError);
  }
  SUBCASE("a flipped bit in a block's checksum fails that block") {
    flipBits(file, static_cast<std::streamoff>(std::filesystem::file_size(file) - 1), 0x01);
    const std::string message = block + ": checksum mismatch";
    CHECK_THROWS_WITH_AS(GraphStore(dir.path()).terms()->term(0), doctest::Contains(message.c_str()), StorageError);
  }
  SUBCASE("a flipped byte in the header fails at open") {
    flipBits(file, 20);
    CHECK_THROWS_WITH_AS(GraphStore{dir.path()}, doctest::Contains("header checksum mismatch"), StorageError);
  }
  SUBCASE("a truncated file fails at open") {
    makeWritable(file);
    std::filesystem::resize_file(file, std::filesystem::file_size(file) - 1);
    CHECK_THROWS_WITH_AS(GraphStore{dir.path()}, doctest::Contains("truncated"), StorageError);
    std::filesystem::resize_file(file, 10);
    CHECK_THROWS_WITH_AS(GraphStore{dir.path()}, doctest::Contains("shorter than its header"), StorageError);
  }
  SUBCASE("a database without one (written by an earlier version) decodes through the dictionary") {
    std::filesystem::remove(file);
    GraphStore store(dir.path());
    CHECK(store.terms() == nullptr);
    store.verify();
    CHECK(tsv(dir.path(), query) == expected);
  }
}
