#pragma once
// The term dictionary: RDF terms (rdf/term.h form) <-> dense 32-bit ids, with
// separate id spaces for vertices (subjects, objects) and predicates. It lives
// in RocksDB and is written once per generation by ingesting sorted SST files.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rocksdb {
class DB;
}

namespace gsparql {

enum class TermSpace : char { Vertex = 'v', Predicate = 'p' };

// Terms numbered 0..count-1, by key (rdf::termKey) and as first written;
// the views must stay valid while writing.
struct NumberedTerms {
  uint32_t count = 0;
  std::function<std::string_view(uint32_t id)> key;
  std::function<std::string_view(uint32_t id)> term;
};

void writeDictionary(const std::filesystem::path& dir, const NumberedTerms& vertices,
                     const NumberedTerms& predicates);

class Dictionary {
 public:
  explicit Dictionary(const std::filesystem::path& dir);  // read-only
  ~Dictionary();
  Dictionary(Dictionary&&) noexcept;
  Dictionary& operator=(Dictionary&&) noexcept;
  // The same dictionary, its terms added by extend() copied: a copied
  // snapshot (storage/graph_store.h) extends its own.
  Dictionary(const Dictionary&);
  Dictionary& operator=(const Dictionary&) = delete;

  // Finds a term by its key: "a"@EN finds "a"@en.
  std::optional<uint32_t> id(TermSpace space, std::string_view term) const;
  // Batch decode; throws StorageError if an id is unknown.
  std::vector<std::string> terms(TermSpace space, std::span<const uint32_t> ids) const;
  std::string term(TermSpace space, uint32_t id) const;
  // Whether the stored terms (not those extend() adds) include `id`.
  bool holds(TermSpace space, uint32_t id) const;
  // Visits all terms of a space in id order.
  void forEach(TermSpace space, const std::function<void(uint32_t, std::string_view)>& visit) const;
  // Reads every block of the dictionary's files and checks its checksum;
  // throws StorageError "database corrupted: ..." on a mismatch.
  void verify() const;
  // Terms a delta adds (storage/delta_overlay.h), in memory, numbered from
  // `firstId` in order: the stored terms' count, or where the terms added
  // before end.
  void extend(TermSpace space, uint32_t firstId, std::vector<std::string> terms);

 private:
  // A space's terms added by extend().
  struct AddedTerms {
    uint32_t firstId = 0;
    std::vector<std::string> terms;
    std::unordered_map<std::string, uint32_t> idsByKey;  // rdf::termKey, as the stored ones
    bool holds(uint32_t id) const { return id >= firstId && id - firstId < terms.size(); }
  };
  const AddedTerms& added(TermSpace space) const {
    return space == TermSpace::Vertex ? addedVertices_ : addedPredicates_;
  }
  std::vector<std::string> storedTerms(TermSpace space, std::span<const uint32_t> ids) const;

  std::filesystem::path dir_;
  std::shared_ptr<rocksdb::DB> db_;  // shared by copies (read-only), with its block cache
  // Predicates are few and in every query: their ids are kept in memory.
  std::unordered_map<std::string, uint32_t> predicateIds_;
  AddedTerms addedVertices_, addedPredicates_;
};

}  // namespace gsparql
