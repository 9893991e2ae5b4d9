#pragma once
// The parsed form of recently seen query texts, for the whole process: a
// server's clients send the same few hundred texts again and again, and
// parsing one took as long as running it (a seventh of a served query's
// time). A parse depends only on the text and the base IRI, never on the
// database, so every snapshot shares the cache.
#include <cstddef>
#include <functional>
#include <memory>
#include <string_view>

#include "engine/optimizer/recent_cache.h"
#include "parser/algebra.h"

namespace gsparql {

class ParsedQueryCache {
 public:
  using Parse = std::function<sparql::Query()>;

  // Texts longer than `maxTextBytes` are parsed every time: they are rarely
  // sent twice, and the cache's memory stays below entries times that.
  explicit ParsedQueryCache(size_t maxEntries = 1024, size_t maxTextBytes = 16 * 1024)
      : recent_(maxEntries), maxTextBytes_(maxTextBytes) {}

  // The cached parse of (base, text), else parse()'s, kept. What parse()
  // throws is thrown and nothing is kept.
  std::shared_ptr<const sparql::Query> get(std::string_view base, std::string_view text, const Parse& parse);

  size_t size() const { return recent_.size(); }

 private:
  engine::RecentCache<sparql::Query> recent_;
  size_t maxTextBytes_;
};

}  // namespace gsparql
