#pragma once
// A text query run against the store's text index: the literals that match,
// each with a score. Scores are Lucene's default (BM25, k1 = 1.2, b = 0.75)
// summed over the query's words that the literal holds; a phrase scores as
// its words; a prefix query scores 1 a literal, as Lucene's constant-score
// prefix queries do.
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "engine/bgp/query_limits.h"
#include "engine/text/text_query.h"

namespace gsparql {
class GraphStore;
}

namespace gsparql::engine::text {

struct TextMatches {
  std::vector<uint32_t> literals;  // vertex ids, ascending
  std::vector<double> scores;      // of each literal

  // The score of `literal`, which must be one of them.
  double scoreOf(uint32_t literal) const;
};

// The literals of `store` that `query` matches and `keep` (if set) keeps;
// with `limit`, only the `limit` best of them (ties: the lower id). Throws
// QueryError where the store has no text index, QueryCancelled or
// QueryTimedOut where `stop` says so.
TextMatches searchText(const TextNode& query, const GraphStore& store, std::optional<uint64_t> limit, StopCheck& stop,
                       const std::function<bool(uint32_t literal)>& keep = {});

// The literals with a word holding `part` (lower case; not empty): a
// superset of those whose lexical form, or its lower case, holds `part`
// where `part` is ASCII letters and digits (no word boundary falls inside a
// run of those). Ascending; stops at `cap` literals (nullopt beyond).
std::optional<std::vector<uint32_t>> literalsWithWordsHolding(std::string_view part, const GraphStore& store, size_t cap,
                                                             StopCheck& stop);

}  // namespace gsparql::engine::text
