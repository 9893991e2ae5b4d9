#pragma once
// A committed generation opened for reading: dictionary, adjacency in both
// directions, catalog and (when the generation has one) the value column,
// with the delta files the generation has at opening applied in memory
// (storage/delta_overlay.h): one snapshot of the database.
// Holding a GraphStore pins its generation: no load removes its folder while
// the GraphStore lives, in this process or another (generations.h).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "storage/adjacency.h"
#include "storage/catalog.h"
#include "storage/data_identity.h"
#include "storage/delta_file.h"
#include "storage/dictionary.h"
#include "storage/generations.h"
#include "storage/graph_changes.h"
#include "storage/named_graphs.h"
#include "storage/term_column.h"
#include "storage/text_index.h"
#include "storage/value_column.h"

namespace gsparql {

inline constexpr const char* kDictionaryDir = "dictionary";
inline constexpr const char* kOutAdjacencyFile = "out.pcsr";
inline constexpr const char* kInAdjacencyFile = "in.pcsr";

class GraphStore {
 public:
  // Throws StorageError if `root` holds no committed database.
  explicit GraphStore(const std::filesystem::path& root);
  // The generation pinned (an update's intermediate state, say).
  explicit GraphStore(PinnedGeneration pinned);
  // The same snapshot, pinned on its own, sharing the files (maps, RocksDB
  // and what has been checked of them) and copying what its delta changed
  // in memory: for a writer that extends the copy while readers keep
  // `other` (gsparql/update_batch.h), without opening anything again.
  GraphStore(const GraphStore& other);
  GraphStore& operator=(const GraphStore&) = delete;
  GraphStore(GraphStore&&) = default;

  const Generation& generation() const { return pinned_.generation(); }
  // The delta files read with the generation (storage/delta_file.h).
  uint32_t deltaFiles() const { return deltaFiles_; }
  uint64_t deltaRecords() const { return deltaRecords_; }
  // Names this snapshot's content (storage/data_identity.h): the same in
  // copies, another once extend() changes it or the folder is opened again.
  uint64_t identity() const { return identity_; }
  // False once a load or an update has committed a newer generation or delta
  // file than those read here.
  bool isLatest() const;
  // The folder's newest snapshot made from this one, where only delta files
  // were committed since (updates, not a load or a merge): a copy extended by
  // them, which shares the maps, RocksDB, what has been checked and the data
  // identities of what they did not change. nullopt after a newer
  // generation: open the folder then.
  std::optional<GraphStore> withNewerDelta() const;
  const Catalog& catalog() const { return catalog_; }
  const Dictionary& dictionary() const { return dictionary_; }
  // The default graph and the named graphs, and which predicate ids each uses.
  const NamedGraphs& graphs() const { return graphs_; }
  const AdjacencyFile& adjacency(pcsr::Direction d) const {
    return d == pcsr::Direction::Out ? out_ : in_;
  }
  // The typed value of every vertex id, or nullptr for a database written
  // before value columns existed (decode terms instead).
  const ValueColumn* values() const { return values_ ? &*values_ : nullptr; }
  // The term of every vertex id in a memory map, or nullptr for a database
  // written before term columns existed (decode through the dictionary).
  const TermColumn* terms() const { return terms_ ? &*terms_ : nullptr; }
  // The words of the string literals (storage/text_index.h), or nullptr for
  // a database written before text indexes existed.
  const TextIndex* text() const { return text_ ? &*text_ : nullptr; }
  // Applies an update's delta records in memory, as if read from the next
  // delta file: for a writer's own snapshot, which nothing else reads yet
  // (an update batch, gsparql/update_batch.h, whose requests each read
  // those before; readers then get it whole, without replaying the delta).
  // `files`: the delta files the records complete, 0 while they are not
  // written yet (each file one blank-node scope: delta_overlay.h). Leaves
  // the snapshot unusable when it throws.
  void extend(const std::vector<DeltaRecord>& records, uint32_t files);
  // Whether the snapshot holds `triple` (terms; the predicate key names its graph).
  bool holds(const TermTriple& triple) const;
  // Checks every checksum of the dictionary, the adjacency files, the
  // value column and the term column, and the structure of the adjacency files.
  void verify() const;

 private:
  PinnedGeneration pinned_;
  uint32_t deltaFiles_ = 0;
  uint64_t deltaRecords_ = 0;
  uint64_t identity_ = newDataIdentity();
  Catalog catalog_;
  Dictionary dictionary_;
  NamedGraphs graphs_;
  AdjacencyFile out_;
  AdjacencyFile in_;
  std::optional<ValueColumn> values_;
  std::optional<TermColumn> terms_;
  std::optional<TextIndex> text_;
};

}  // namespace gsparql
