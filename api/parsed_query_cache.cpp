#include "api/parsed_query_cache.h"

#include <string>

namespace gsparql {

std::shared_ptr<const sparql::Query> ParsedQueryCache::get(std::string_view base, std::string_view text,
                                                           const Parse& parse) {
  if (text.size() > maxTextBytes_) return std::make_shared<const sparql::Query>(parse());
  std::string key;
  key.reserve(base.size() + 1 + text.size());
  key.append(base).push_back('\0');  // no IRI holds a NUL, so (base, text) pairs cannot collide
  key.append(text);
  if (auto cached = recent_.find(key)) return cached;
  return recent_.insert(std::move(key), std::make_shared<const sparql::Query>(parse()));
}

}  // namespace gsparql
