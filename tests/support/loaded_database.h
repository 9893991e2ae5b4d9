#pragma once
// A database loaded from N-Triples (or N-Quads) text into a temporary folder, and opened.
#include <optional>
#include <string>
#include <vector>

#include "gsparql/database.h"
#include "support/test_support.h"

namespace gsparql::test {

struct LoadedDatabase {
  TempDir dir;
  std::optional<Database> db;

  // `fileName`'s extension says the format ("data.nq": N-Quads).
  explicit LoadedDatabase(const std::string& text, const std::string& fileName = "data.nt") {
    writeFile(dir / fileName, text);
    Database::load(dir / "db", {(dir / fileName).string()});
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
