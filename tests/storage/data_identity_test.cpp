// storage/data_identity.h: what the GPU's cache keys its copies by, so that
// the snapshots sharing it (api/shared_gpu_executors.h) read their own data
// and share what an update did not change.
#include <doctest/doctest.h>

#include <filesystem>
#include <optional>
#include <string>

#include "gsparql/database.h"
#include "storage/graph_store.h"
#include "support/test_support.h"

using namespace gsparql;
using namespace gsparql::test;

namespace {

uint32_t predicateId(const GraphStore& store, const std::string& iri) {
  const auto id = store.dictionary().id(TermSpace::Predicate, iri);
  REQUIRE(id.has_value());
  return *id;
}

constexpr pcsr::Direction kDirections[] = {pcsr::Direction::Out, pcsr::Direction::In};

}  // namespace

TEST_CASE("a snapshot's copies share its identities, and a delta's change and a folder opened again get new ones") {
  TempDir dir;
  writeFile(dir / "data.nt", "<http://e/a> <http://e/p> <http://e/b> .\n<http://e/a> <http://e/q> <http://e/c> .\n");
  Database::load(dir / "db", {(dir / "data.nt").string()});
  Database::update(dir / "db", "INSERT DATA { <http://e/a> <http://e/p> <http://e/d> }");
  const GraphStore store(dir / "db");
  const uint32_t p = predicateId(store, "<http://e/p>");
  const uint32_t q = predicateId(store, "<http://e/q>");
  for (const pcsr::Direction d : kDirections) {
    // p was made again from the delta; q is read from the file.
    CHECK(store.adjacency(d).source(p) != store.adjacency(d).source(q));
  }
  CHECK(store.adjacency(pcsr::Direction::Out).source(q) != store.adjacency(pcsr::Direction::In).source(q));

  GraphStore copy(store);
  CHECK(copy.identity() == store.identity());
  for (const pcsr::Direction d : kDirections) {
    CHECK(copy.adjacency(d).source(p) == store.adjacency(d).source(p));
    CHECK(copy.adjacency(d).source(q) == store.adjacency(d).source(q));
  }

  // A writer extends its copy: only what it changed is named anew.
  copy.extend({{true, {"<http://e/b>", "<http://e/q>", "<http://e/e>"}}}, 0);
  CHECK(copy.identity() != store.identity());
  for (const pcsr::Direction d : kDirections) {
    CHECK(copy.adjacency(d).source(p) == store.adjacency(d).source(p));
    CHECK(copy.adjacency(d).source(q) != store.adjacency(d).source(q));
  }

  // The same folder opened again holds the same bytes under new names: a
  // database loaded again at the same path never meets the old copies.
  const GraphStore again(dir / "db");
  CHECK(again.identity() != store.identity());
  for (const pcsr::Direction d : kDirections) {
    CHECK(again.adjacency(d).source(p) != store.adjacency(d).source(p));
    CHECK(again.adjacency(d).source(q) != store.adjacency(d).source(q));
  }
}

TEST_CASE("a snapshot made newer by the delta files committed since shares what they did not change") {
  TempDir dir;
  writeFile(dir / "data.nt", "<http://e/a> <http://e/p> <http://e/b> .\n<http://e/a> <http://e/q> <http://e/c> .\n");
  Database::load(dir / "db", {(dir / "data.nt").string()});
  const GraphStore store(dir / "db");
  Database::update(dir / "db", "INSERT DATA { <http://e/a> <http://e/p> <http://e/d> }");
  Database::update(dir / "db", "INSERT DATA { <http://e/a> <http://e/r> _:x }");
  CHECK_FALSE(store.isLatest());
  std::optional<GraphStore> newer = store.withNewerDelta();
  REQUIRE(newer.has_value());
  CHECK(newer->isLatest());
  CHECK(newer->deltaFiles() == 2);
  CHECK(newer->holds({"<http://e/a>", "<http://e/p>", "<http://e/d>"}));
  CHECK_FALSE(store.holds({"<http://e/a>", "<http://e/p>", "<http://e/d>"}));
  CHECK(newer->identity() != store.identity());
  const uint32_t p = predicateId(store, "<http://e/p>");
  const uint32_t q = predicateId(store, "<http://e/q>");
  for (const pcsr::Direction d : kDirections) {
    CHECK(newer->adjacency(d).source(q) == store.adjacency(d).source(q));
    CHECK(newer->adjacency(d).source(p) != store.adjacency(d).source(p));
  }
  // As the folder opened afresh reads it (the blank node's scope included).
  const GraphStore opened(dir / "db");
  CHECK(newer->catalog().vertexCount == opened.catalog().vertexCount);
  CHECK(newer->catalog().inputFiles == opened.catalog().inputFiles);
  CHECK(newer->dictionary().id(TermSpace::Vertex, "<http://e/d>") == opened.dictionary().id(TermSpace::Vertex, "<http://e/d>"));

  // Already the newest: a copy of the same content.
  CHECK(newer->withNewerDelta()->identity() == newer->identity());
  // A load commits a new generation: nothing to extend.
  Database::load(dir / "db", {(dir / "data.nt").string()});
  CHECK_FALSE(newer->withNewerDelta().has_value());
}

TEST_CASE("a database deleted and loaded again at the same path is never taken for a newer snapshot of the old one") {
  TempDir dir;
  writeFile(dir / "old.nt", "<http://e/a> <http://e/p> <http://e/b> .\n");
  writeFile(dir / "new.nt", "<http://e/x> <http://e/q> <http://e/y> .\n");
  Database::load(dir / "db", {(dir / "old.nt").string()});
  const GraphStore store(dir / "db");  // pins generation 1 of the old database
  std::filesystem::remove_all(dir / "db");
  Database::load(dir / "db", {(dir / "new.nt").string()});  // generation 1 again, another folder
  Database::update(dir / "db", "INSERT DATA { <http://e/x> <http://e/q> <http://e/z> }");
  Database::update(dir / "db", "INSERT DATA { <http://e/x> <http://e/q> <http://e/w> }");
  CHECK_FALSE(store.isLatest());
  CHECK_FALSE(store.withNewerDelta().has_value());
  CHECK(store.holds({"<http://e/a>", "<http://e/p>", "<http://e/b>"}));  // still the old snapshot, whole
}
