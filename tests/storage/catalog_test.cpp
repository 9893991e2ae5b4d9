#include <doctest/doctest.h>

#include "gsparql/database.h"
#include "storage/catalog.h"
#include "storage/file_io.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

TEST_CASE("the catalog reads back what was written, and rejects edits") {
  TempDir dir;
  Catalog catalog{7, 3, 1234, 5678, {{10, 2, 3, 4, 5}, {0, 0, 0, 0, 0}, {99, 1, 99, 99, 1}}};
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
