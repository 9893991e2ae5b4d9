#include "storage/graph_store.h"

#include <string>
#include <utility>

#include "storage/delta_file.h"
#include "storage/delta_overlay.h"
#include "storage/system_error.h"

namespace gsparql {
namespace {

PinnedGeneration requireGeneration(const std::filesystem::path& root) {
  auto pinned = PinnedGeneration::pinCurrent(root);
  if (!pinned) throw StorageError("no database at " + root.string() + " (load data first)");
  return std::move(*pinned);
}

void requireOneEntryPerVertex(const std::filesystem::path& dir, const std::string& file, uint64_t entries,
                              uint64_t vertices) {
  if (entries != vertices) {
    throw StorageError("corrupt database " + dir.string() + ": the " + file + " has " + std::to_string(entries) +
                       " entries, the catalog " + std::to_string(vertices) + " vertices");
  }
}

// RocksDB reads a MANIFEST whose last record has a damaged length as one
// that a crash cut short, and opens the dictionary without the files that
// record added. A generation's dictionary is one ingestion, written by one
// record, so its last ids tell whether its files are there.
void requireWholeDictionary(const Dictionary& dictionary, const Catalog& catalog, const std::filesystem::path& dir) {
  const bool whole =
      (catalog.vertexCount == 0 || dictionary.holds(TermSpace::Vertex, static_cast<uint32_t>(catalog.vertexCount - 1))) &&
      (catalog.predicates.empty() ||
       dictionary.holds(TermSpace::Predicate, static_cast<uint32_t>(catalog.predicates.size() - 1)));
  if (!whole) {
    throw StorageError("database corrupted: " + dir.string() +
                       ": the dictionary lacks the catalog's last terms, as when its MANIFEST is damaged");
  }
}

std::vector<uint64_t> tripleCounts(const Catalog& catalog) {
  std::vector<uint64_t> counts;
  for (const PredicateStatistics& p : catalog.predicates) counts.push_back(p.triples);
  return counts;
}

}  // namespace

GraphStore::GraphStore(const std::filesystem::path& root) : GraphStore(requireGeneration(root)) {}

GraphStore::GraphStore(PinnedGeneration pinned)
    : pinned_(std::move(pinned)),
      catalog_(readCatalog(generation().dir / kCatalogFile)),
      dictionary_(generation().dir / kDictionaryDir),
      out_(generation().dir / kOutAdjacencyFile, catalog_.vertexCount),
      in_(generation().dir / kInAdjacencyFile, catalog_.vertexCount) {
  const std::filesystem::path& dir = generation().dir;
  requireWholeDictionary(dictionary_, catalog_, dir / kDictionaryDir);
  if (out_.predicateCount() != catalog_.predicates.size() ||
      in_.predicateCount() != catalog_.predicates.size()) {
    throw StorageError("corrupt database " + dir.string() +
                       ": adjacency files and catalog disagree on the predicate count");
  }
  if (std::filesystem::exists(dir / kValuesFile)) {
    values_.emplace(dir / kValuesFile);
    requireOneEntryPerVertex(dir, "value column", values_->size(), catalog_.vertexCount);
  }
  if (std::filesystem::exists(dir / kTermsFile)) {
    terms_.emplace(dir / kTermsFile);
    requireOneEntryPerVertex(dir, "term column", terms_->size(), catalog_.vertexCount);
  }
  if (std::filesystem::exists(dir / kTextFile)) text_.emplace(dir / kTextFile);
  const uint32_t files = deltaFileCount(dir);
  if (files > 0) {
    extend(readDeltaFiles(dir, 1, files), files);
  } else {
    graphs_ = NamedGraphs(dictionary_, tripleCounts(catalog_));
  }
}

void GraphStore::extend(const std::vector<DeltaRecord>& records, uint32_t files) {
  applyDelta(records, files, {catalog_, dictionary_, out_, in_, values_ ? &*values_ : nullptr, terms_ ? &*terms_ : nullptr,
                       text_ ? &*text_ : nullptr});
  deltaFiles_ += files;
  deltaRecords_ += records.size();
  identity_ = newDataIdentity();
  graphs_ = NamedGraphs(dictionary_, tripleCounts(catalog_));
}

GraphStore::GraphStore(const GraphStore& other)
    : pinned_(PinnedGeneration::pinFolder(other.generation())),
      deltaFiles_(other.deltaFiles_),
      deltaRecords_(other.deltaRecords_),
      identity_(other.identity_),
      catalog_(other.catalog_),
      dictionary_(other.dictionary_),
      graphs_(other.graphs_),
      out_(other.out_),
      in_(other.in_),
      values_(other.values_),
      terms_(other.terms_),
      text_(other.text_) {}

std::optional<GraphStore> GraphStore::withNewerDelta() const {
  if (committedGenerationNumber(generation().dir.parent_path()) != generation().number) return std::nullopt;
  if (!pinned_.stillAtItsPath()) return std::nullopt;
  // A merge meanwhile leaves these files as they are (the folder is pinned):
  // the copy is then a consistent snapshot, older than the newest.
  const uint32_t files = deltaFileCount(generation().dir);
  std::optional<GraphStore> newer(std::in_place, *this);
  if (files > deltaFiles_) newer->extend(readDeltaFiles(generation().dir, deltaFiles_ + 1, files), files - deltaFiles_);
  // The delta files read were this folder's, not those of another put at its path meanwhile.
  if (!pinned_.stillAtItsPath()) return std::nullopt;
  return newer;
}

bool GraphStore::isLatest() const {
  return committedGenerationNumber(generation().dir.parent_path()) == generation().number &&
         !hasDeltaFile(generation().dir, deltaFiles_ + 1) && pinned_.stillAtItsPath();
}

bool GraphStore::holds(const TermTriple& triple) const { return holdsTriple(dictionary_, out_, triple); }

void GraphStore::verify() const {
  dictionary_.verify();
  out_.verify();
  in_.verify();
  if (values_) values_->verify();
  if (terms_) terms_->verify();
  if (text_) text_->verify();
}

}  // namespace gsparql
