#include <doctest/doctest.h>

#include <algorithm>

#include "gsparql/database.h"
#include "storage/catalog.h"
#include "storage/checksum.h"
#include "storage/dictionary.h"
#include "storage/graph_store.h"
#include "storage/file_io.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

TEST_CASE("the catalog reads back what was written, and rejects edits") {
  TempDir dir;
  Catalog catalog{7, 3, 1234, 5678, {{10, 2, 3, 4, 5}, {0, 0, 0, 0, 0}, {99, 1, 99, 99, 1}}, {}, {}};
  writeCatalog(dir / "catalog", catalog);
  CHECK(readCatalog(dir / "catalog") == catalog);

  std::string text = readWholeFile(dir / "catalog");
  text.replace(text.find("triples 5678"), 12, "triples 5679");
  writeFile(dir / "catalog", text);
  CHECK_THROWS_WITH_AS(readCatalog(dir / "catalog"), doctest::Contains("checksum mismatch"), StorageError);
}

TEST_CASE("opening a folder without a database says so") {
  TempDir dir;
  CHECK_THROWS_WITH_AS(readCatalog(dir / "missing"), doctest::Contains("missing"), StorageError);
  CHECK_THROWS_WITH_AS(Database(dir.path()), doctest::Contains("no database at"), StorageError);
}

TEST_CASE("characteristic sets: found by a load, kept in the catalog, and absent from catalogs written before") {
  // 100 subjects with two <p1> and one <p2>, 50 with one <p1>, 30 with one <p3>.
  TempDir dir;
  std::string nt;
  for (int i = 0; i < 180; ++i) {
    const std::string s = "<http://e/s" + std::to_string(i) + ">";
    if (i < 100) {
      nt += s + " <http://e/p1> <http://e/a" + std::to_string(i) + "> .\n" + s + " <http://e/p1> <http://e/b> .\n";
      nt += s + " <http://e/p2> \"x\" .\n";
    } else {
      nt += s + (i < 150 ? " <http://e/p1> <http://e/b> .\n" : " <http://e/p3> <http://e/b> .\n");
    }
  }
  writeFile(dir / "g.nt", nt);
  Database::load(dir / "db", {(dir / "g.nt").string()});
  const Catalog catalog = GraphStore(dir / "db").catalog();
  const auto id = [&](const std::string& p) {
    return GraphStore(dir / "db").dictionary().id(TermSpace::Predicate, "<http://e/" + p + ">").value();
  };
  REQUIRE(catalog.characteristicSets.size() == 3);
  CHECK(catalog.characteristicSets[0].subjects == 100);
  std::vector<std::pair<uint32_t, uint64_t>> both{{id("p1"), 200}, {id("p2"), 100}};
  std::sort(both.begin(), both.end());
  CHECK(catalog.characteristicSets[0].predicates == both);
  CHECK(catalog.characteristicSets[1].subjects == 50);
  CHECK(catalog.characteristicSets[1].predicates == std::vector<std::pair<uint32_t, uint64_t>>{{id("p1"), 50}});
  CHECK(catalog.characteristicSets[2].subjects == 30);
  CHECK(catalog.characteristicSets[2].predicates == std::vector<std::pair<uint32_t, uint64_t>>{{id("p3"), 30}});
  // Indexed by predicate as read: the sets that have each one.
  CHECK(catalog.setsWithPredicate.at(id("p1")) == std::vector<SetPosting>{{0, 200}, {1, 50}});
  CHECK(catalog.setsWithPredicate.at(id("p2")) == std::vector<SetPosting>{{0, 100}});
  CHECK(catalog.setsWithPredicate.at(id("p3")) == std::vector<SetPosting>{{2, 30}});
  CHECK(catalog.subjectsInSets == 180);

  writeCatalog(dir / "catalog", catalog);
  CHECK(readCatalog(dir / "catalog") == catalog);
  // A catalog of an earlier version ends after its predicates.
  Catalog old = catalog;
  old.characteristicSets.clear();
  std::string text = readWholeFile(dir / "catalog");
  std::string body = text.substr(0, text.find("characteristic_sets"));
  writeFile(dir / "old", body + "checksum " + std::to_string(crc32Update(0, body.data(), body.size())) + "\n");
  CHECK(readCatalog(dir / "old") == old);
  // A set naming a predicate the catalog lacks is corrupt, checksum or not.
  body = text.substr(0, text.rfind("checksum "));
  body.replace(body.find("set 30 1 ") + 9, std::to_string(id("p3")).size(), "999");
  writeFile(dir / "bad", body + "checksum " + std::to_string(crc32Update(0, body.data(), body.size())) + "\n");
  CHECK_THROWS_WITH_AS(readCatalog(dir / "bad"), doctest::Contains("bad set line"), StorageError);
}

TEST_CASE("a catalog whose checksum holds but whose text is malformed is corrupt, never misread") {
  TempDir dir;
  Catalog catalog{1, 1, 10, UINT64_MAX, {{UINT64_MAX, 2, 3, 4, 5}}, {{4, {{0, 9}}}}, {}};
  indexCharacteristicSets(catalog);
  writeCatalog(dir / "catalog", catalog);
  CHECK(readCatalog(dir / "catalog") == catalog);  // the largest counts read back
  const std::string text = readWholeFile(dir / "catalog");
  const std::string body = text.substr(0, text.rfind("checksum "));
  // The body with `from` replaced by `to`, under a checksum that matches it.
  const auto edited = [&](const std::string& from, const std::string& to) {
    std::string b = body;
    REQUIRE(b.find(from) != std::string::npos);
    b.replace(b.find(from), from.size(), to);
    writeFile(dir / "edited", b + "checksum " + std::to_string(crc32Update(0, b.data(), b.size())) + "\n");
    return dir / "edited";
  };
  const std::vector<std::tuple<std::string, std::string, std::string>> cases{  // from, to, the error
      {"vertices 10", "vertices -10", "bad vertices"},          // istream read -10 as a huge unsigned
      {"vertices 10", "vertices 1x0", "bad vertices"},
      {"vertices 10", "vertex 10", "expected vertices"},
      {"vertices 10", "vertices 99999999999999999999", "bad vertices"},  // past uint64
      {"predicates 1", "predicates 123456789012", "bad predicates"},    // no allocation of that many
      {"predicate 18446744073709551615 2 3 4 5", "predicate 1 2 3", "bad predicate line"},
      {"set 4 1 0 9", "set 4 1 0", "bad set line"},
      {"set 4 1 0 9", "set 4 2 0 9", "bad set line"},
      {"set 4 1 0 9", "set 4 1 5 9", "bad set line"},  // no predicate 5
      {"characteristic_sets 1", "characteristic_sets 2", "expected set"},
  };
  for (const auto& [from, to, message] : cases) {
    CAPTURE(to);
    CHECK_THROWS_WITH_AS(readCatalog(edited(from, to)), doctest::Contains(message.c_str()), StorageError);
  }
}
