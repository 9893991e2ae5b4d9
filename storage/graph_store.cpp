#include "storage/graph_store.h"

#include "storage/system_error.h"

namespace gsparql {
namespace {

Generation requireGeneration(const std::filesystem::path& root) {
  auto generation = currentGeneration(root);
  if (!generation) throw StorageError("no database at " + root.string() + " (load data first)");
  return *generation;
}

}  // namespace

GraphStore::GraphStore(const std::filesystem::path& root)
    : generation_(requireGeneration(root)),
      catalog_(readCatalog(generation_.dir / kCatalogFile)),
      dictionary_(generation_.dir / kDictionaryDir),
      out_(generation_.dir / kOutAdjacencyFile),
      in_(generation_.dir / kInAdjacencyFile) {
  if (out_.predicateCount() != catalog_.predicates.size() ||
      in_.predicateCount() != catalog_.predicates.size()) {
    throw StorageError("corrupt database " + generation_.dir.string() +
                       ": adjacency files and catalog disagree on the predicate count");
  }
}

void GraphStore::verify() const {
  out_.verify();
  in_.verify();
}

}  // namespace gsparql
