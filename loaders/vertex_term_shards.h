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

#include "loaders/statement_batch.h"
#include "loaders/term_encoder.h"
#include "storage/dictionary.h"

namespace gsparql {

inline constexpr unsigned kVertexShardBits = 6;
inline constexpr unsigned kVertexShards = 1u << kVertexShardBits;

// Provisional id -> final id, once all terms are in.
class FinalVertexIds {
 public:
  static constexpr unsigned kLocalBits = 32 - kVertexShardBits;
  explicit FinalVertexIds(const std::array<uint32_t, kVertexShards + 1>& bases) : bases_(bases) {}
  uint32_t operator()(uint32_t provisional) const {
    return bases_[provisional >> kLocalBits] + (provisional & ((1u << kLocalBits) - 1));
  }

 private:
  std::array<uint32_t, kVertexShards + 1> bases_;
};

class VertexTermShards {
 public:
  // Writes the provisional id of every vertex term of `batch` (prepared with
  // kVertexShardBits) into ids, which has one entry per vertex term.
  void intern(const StatementBatch& batch, std::span<uint32_t> ids);

  uint64_t size() const;
  FinalVertexIds finalIds() const { return FinalVertexIds(bases()); }
  // By final id.
  NumberedTerms numbered() const;

 private:
  std::array<uint32_t, kVertexShards + 1> bases() const;

  std::array<TermEncoder, kVertexShards> shards_;
};

}  // namespace gsparql
