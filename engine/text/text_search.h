#pragma once
// A text query run against the store's text index: the literals that match,
// each with a score. Scores are Lucene's default (BM25, k1 = 1.2, b = 0.75)
// summed over the query's words that the literal holds; a phrase scores as
// its words; a prefix query scores 1 a literal, as Lucene's constant-score
// prefix queries do.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
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

// How a text query is run.
struct TextSearch {
  std::optional<uint64_t> limit;  // only the `limit` best literals (ties: the lower id)
  // A language tag (text:query's lang:TAG): only the literals of that tag
  // (compared case-insensitively, whole); and where Snowball has a stemmer
  // for its language (stemmer.h), a query word matches the words of the
  // same stem, in phrases too (not prefixes), as a Lucene index with that
  // language's analyzer does.
  std::string language;
  std::function<bool(uint32_t literal)> keep;  // if set, only the literals it keeps
};

// The literals of `store` that `query` matches as `search` says. Throws
// QueryError where the store has no text index, QueryCancelled or
// QueryTimedOut where `stop` says so.
TextMatches searchText(const TextNode& query, const GraphStore& store, const TextSearch& search, StopCheck& stop);

// The literals with a word holding `part` (lower case; not empty): a
// superset of those whose lexical form, or its lower case, holds `part`
// where `part` is ASCII letters and digits (no word boundary falls inside a
// run of those). Ascending; stops at `cap` literals (nullopt beyond).
std::optional<std::vector<uint32_t>> literalsWithWordsHolding(std::string_view part, const GraphStore& store, size_t cap,
                                                             StopCheck& stop);

}  // namespace gsparql::engine::text
