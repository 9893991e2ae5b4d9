#include "loaders/vertex_term_shards.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <limits>

#include "gsparql/error.h"

namespace gsparql {

void VertexTermShards::intern(const StatementBatch& batch, std::span<uint32_t> ids) {
  const auto terms = batch.vertexTerms();
  tbb::parallel_for(0u, kVertexShards, [&](unsigned shard) {
    TermEncoder& encoder = shards_[shard];
    for (uint32_t i : batch.termsOfShard(shard)) {
      const uint32_t local = encoder.intern(terms[i].key, terms[i].spelling, terms[i].hash);
      if (local >> FinalVertexIds::kLocalBits) {
        throw LoadError("too many distinct terms: a dictionary shard is full at 2^" +
                        std::to_string(FinalVertexIds::kLocalBits) + " terms (about 4 billion in all)");
      }
      ids[i] = shard << FinalVertexIds::kLocalBits | local;
    }
  });
}

std::array<uint32_t, kVertexShards + 1> VertexTermShards::bases() const {
  std::array<uint32_t, kVertexShards + 1> bases{};
  for (unsigned s = 0; s < kVertexShards; ++s) bases[s + 1] = bases[s] + shards_[s].size();
  return bases;
}

uint64_t VertexTermShards::size() const {
  uint64_t total = 0;
  for (const TermEncoder& shard : shards_) total += shard.size();
  if (total > std::numeric_limits<uint32_t>::max() - 1) throw LoadError("more than 2^32-1 distinct terms");
  return total;
}

NumberedTerms VertexTermShards::numbered() const {
  const auto count = static_cast<uint32_t>(size());
  // Locates a final id's shard: the last base at or below it.
  auto locate = [this, bases = bases()](uint32_t id) {
    const auto shard = static_cast<unsigned>(std::upper_bound(bases.begin(), bases.end(), id) - bases.begin() - 1);
    return std::pair<const TermEncoder&, uint32_t>(shards_[shard], id - bases[shard]);
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
