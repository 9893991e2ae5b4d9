#pragma once
// The vertex dictionary of a load, split into 64 shards by term hash, so that
// the terms of a batch are interned on all cores without locks. Each shard
// takes its terms in input order, so every run gives the same ids.
//
// A provisional id holds the shard in its top bits and the shard's own id
// below. Final ids number shard 0's terms first, then shard 1's, and so on:
// provisional and final ids sort alike, so triples can be sorted before the
// final ids are known, and renumbered as they are written.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "loaders/statement_batch.h"
#include "loaders/term_encoder.h"
#include "storage/dictionary.h"

namespace gsparql {

inline constexpr unsigned kVertexShardBits = 6;
inline constexpr unsigned kVertexShards = 1u << kVertexShardBits;

// Provisional id -> final id, once all terms are in. The terms of an
// existing database keep their ids; new terms follow them, in shard order.
class FinalVertexIds {
 public:
  static constexpr unsigned kLocalBits = 32 - kVertexShardBits;
  static constexpr uint32_t kLocalMask = (uint32_t{1} << kLocalBits) - 1;

  uint32_t operator()(uint32_t provisional) const {
    const uint32_t shard = provisional >> kLocalBits, local = provisional & kLocalMask;
    if (local < keptCounts_[shard]) return (*keptIds_)[keptStarts_[shard] + local];
    return newBases_[shard] + local - keptCounts_[shard];
  }
  // True when ids were not kept: final ids then sort like provisional ones.
  bool keepsOrder() const { return keptIds_->empty(); }

 private:
  friend class VertexTermShards;
  std::array<uint32_t, kVertexShards + 1> newBases_{};  // final id of each shard's first new term
  std::array<uint32_t, kVertexShards> keptCounts_{};    // each shard's terms with kept ids come first
  std::array<uint32_t, kVertexShards> keptStarts_{};    // into keptIds_
  const std::vector<uint32_t>* keptIds_ = nullptr;      // by shard, then local id
};

class VertexTermShards {
 public:
  // Writes the provisional id of every vertex term of `batch` (prepared with
  // kVertexShardBits) into ids, which has one entry per vertex term.
  void intern(const StatementBatch& batch, std::span<uint32_t> ids);

  // The terms interned so far keep their ids: provisional[id] is the term
  // whose final id is `id`. Called once, before any other term is interned.
  void keepIds(std::span<const uint32_t> provisional);

  uint64_t size() const;
  FinalVertexIds finalIds() const;
  // By final id.
  NumberedTerms numbered() const;

 private:
  std::array<uint32_t, kVertexShards> keptStarts() const;

  std::array<TermEncoder, kVertexShards> shards_;
  std::vector<uint32_t> keptProvisional_;  // by kept id
  std::vector<uint32_t> keptIds_;          // by shard, then local id
  std::array<uint32_t, kVertexShards> keptCounts_{};
};

}  // namespace gsparql
