#include "storage/graph_store.h"

#include <string>

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
  if (std::filesystem::exists(generation_.dir / kValuesFile)) {
    values_.emplace(generation_.dir / kValuesFile);
    if (values_->size() != catalog_.vertexCount) {
      throw StorageError("corrupt database " + generation_.dir.string() + ": the value column has " +
                         std::to_string(values_->size()) + " entries, the catalog " +
                         std::to_string(catalog_.vertexCount) + " vertices");
    }
  }
}

void GraphStore::verify() const {
  out_.verify();
  in_.verify();
  if (values_) values_->verify();
}

}  // namespace gsparql
