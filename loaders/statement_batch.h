#pragma once
// The statements of one piece of input, as text, with what the encoder needs
// to intern them: every vertex term's key, hash and dictionary shard. The
// thread that parsed the piece prepares them, so that the encoding, which
// must take pieces in input order, has little left to do.
#include <cstdint>
#include <exception>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "loaders/rdf_reader.h"

namespace gsparql {

class StatementBatch {
 public:
  struct VertexTerm {
    std::string_view key;       // rdf::termKey of the spelling
    std::string_view spelling;  // as written
    uint64_t hash;              // TermTable::hash(key)
  };

  void add(const RdfStatementView& statement);
  // A vertex term without a triple: the terms of an existing database.
  void addVertex(std::string_view term);

  // Finds keys, hashes and shards (the top `shardBits` bits of the hash);
  // once, after the last add.
  void prepare(unsigned shardBits);

  size_t triples() const { return predicateOfTriple_.size(); }
  size_t vertexTermCount() const { return textEnds_.size(); }
  // Triple i has subject vertexTerms()[2i] and object vertexTerms()[2i + 1].
  std::span<const VertexTerm> vertexTerms() const { return vertexTerms_; }
  // Indexes into vertexTerms() of the terms that belong to `shard`, in input order.
  std::span<const uint32_t> termsOfShard(unsigned shard) const {
    return std::span<const uint32_t>(termsByShard_).subspan(shardStarts_[shard],
                                                            shardStarts_[shard + 1] - shardStarts_[shard]);
  }
  // The batch's distinct predicates (in a named graph: "<p> <g>", as
  // storage/named_graphs.h keys them), and each triple's index among them.
  const std::vector<std::string>& predicates() const { return predicates_; }
  std::span<const uint32_t> predicateOfTriple() const { return predicateOfTriple_; }

  // Set by the parser: its report, and the error that stopped a strict read.
  RdfReadReport report;
  std::exception_ptr failure;

 private:
  uint32_t localPredicate(std::string_view predicate);

  std::string text_;                  // vertex terms, one after another
  std::vector<uint64_t> textEnds_;    // end of each vertex term in text_
  std::string keys_;                  // keys that differ from their spelling
  std::vector<VertexTerm> vertexTerms_;
  std::vector<uint32_t> termsByShard_;
  std::vector<uint32_t> shardStarts_;
  std::vector<std::string> predicates_;
  std::unordered_map<std::string, uint32_t> predicateIndex_;
  std::vector<uint32_t> predicateOfTriple_;
  std::string graphPredicate_;       // storage/named_graphs.h's key of the statement being added
  std::vector<std::string> graphs_;  // named graphs of the statements, until prepare()
};

}  // namespace gsparql
