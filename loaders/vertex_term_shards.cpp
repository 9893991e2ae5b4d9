#include "loaders/vertex_term_shards.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <limits>

#include "gsparql/error.h"

namespace gsparql {
namespace {
constexpr size_t kPrefetchDistance = 8;
}  // namespace

void VertexTermShards::intern(const StatementBatch& batch, std::span<uint32_t> ids) {
  const auto terms = batch.vertexTerms();
  tbb::parallel_for(0u, kVertexShards, [&](unsigned shard) {
    TermEncoder& encoder = shards_[shard];
    const auto mine = batch.termsOfShard(shard);
    for (size_t k = 0; k < mine.size(); ++k) {
      // The table is far larger than the caches: ask for a later term's slot early.
      if (k + kPrefetchDistance < mine.size()) encoder.prefetch(terms[mine[k + kPrefetchDistance]].hash);
      const uint32_t i = mine[k];
      const uint32_t local = encoder.intern(terms[i].key, terms[i].spelling, terms[i].hash);
      if (local >> FinalVertexIds::kLocalBits) {
        throw LoadError("too many distinct terms: a dictionary shard is full at 2^" +
                        std::to_string(FinalVertexIds::kLocalBits) + " terms (about 4 billion in all)");
      }
      ids[i] = shard << FinalVertexIds::kLocalBits | local;
    }
  });
}

void VertexTermShards::keepIds(std::span<const uint32_t> provisional) {
  keptProvisional_.assign(provisional.begin(), provisional.end());
  for (unsigned s = 0; s < kVertexShards; ++s) keptCounts_[s] = shards_[s].size();
  const auto starts = keptStarts();
  keptIds_.resize(provisional.size());
  for (uint32_t id = 0; id < provisional.size(); ++id) {
    const uint32_t p = provisional[id];
    keptIds_[starts[p >> FinalVertexIds::kLocalBits] + (p & FinalVertexIds::kLocalMask)] = id;
  }
}

std::array<uint32_t, kVertexShards> VertexTermShards::keptStarts() const {
  std::array<uint32_t, kVertexShards> starts{};
  for (unsigned s = 1; s < kVertexShards; ++s) starts[s] = starts[s - 1] + keptCounts_[s - 1];
  return starts;
}

FinalVertexIds VertexTermShards::finalIds() const {
  FinalVertexIds ids;
  ids.keptIds_ = &keptIds_;
  ids.keptCounts_ = keptCounts_;
  ids.keptStarts_ = keptStarts();
  ids.newBases_[0] = static_cast<uint32_t>(keptIds_.size());
  for (unsigned s = 0; s < kVertexShards; ++s) {
    ids.newBases_[s + 1] = ids.newBases_[s] + shards_[s].size() - keptCounts_[s];
  }
  return ids;
}

uint64_t VertexTermShards::size() const {
  uint64_t total = 0;
  for (const TermEncoder& shard : shards_) total += shard.size();
  if (total > std::numeric_limits<uint32_t>::max() - 1) throw LoadError("more than 2^32-1 distinct terms");
  return total;
}

NumberedTerms VertexTermShards::numbered() const {
  const auto count = static_cast<uint32_t>(size());
  // A final id's shard and local id: kept ids through keptProvisional_, new
  // ones by the last shard whose first new id is at or below it.
  auto locate = [this, ids = finalIds()](uint32_t id) {
    if (id < keptProvisional_.size()) {
      const uint32_t p = keptProvisional_[id];
      return std::pair<const TermEncoder&, uint32_t>(shards_[p >> FinalVertexIds::kLocalBits],
                                                     p & FinalVertexIds::kLocalMask);
    }
    const auto& bases = ids.newBases_;
    const auto shard = static_cast<unsigned>(std::upper_bound(bases.begin(), bases.end(), id) - bases.begin() - 1);
    return std::pair<const TermEncoder&, uint32_t>(shards_[shard], id - bases[shard] + keptCounts_[shard]);
  };
  return {count,
          [locate](uint32_t id) {
            auto [shard, local] = locate(id);
            return shard.key(local);
          },
          [locate](uint32_t id) {
            auto [shard, local] = locate(id);
            return shard.term(local);
          }};
}

}  // namespace gsparql
