#pragma once
// A database loaded from N-Triples text into a temporary folder, and opened.
#include <optional>
#include <string>
#include <vector>

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

  // The rows of `query` on the CPU executor, sorted (sortedLines).
  std::vector<std::string> cpuRows(const std::string& query) const {
    QueryOptions options;
    options.backend = Backend::Cpu;
    return sortedLines(db->query(query, options));
  }
};

}  // namespace gsparql::test
