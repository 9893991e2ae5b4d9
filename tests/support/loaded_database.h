#pragma once
// A database loaded from N-Triples text into a temporary folder, and opened.
#include <optional>
#include <string>

#include "gsparql/database.h"
#include "support/test_support.h"

namespace gsparql::test {

struct LoadedDatabase {
  TempDir dir;
  std::optional<Database> db;

  explicit LoadedDatabase(const std::string& ntriples) {
    writeFile(dir / "data.nt", ntriples);
    Database::load(dir / "db", {(dir / "data.nt").string()});
    db.emplace(dir / "db");
  }
};

}  // namespace gsparql::test
